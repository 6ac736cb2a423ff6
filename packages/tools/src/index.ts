/**
 * @packageDocumentation
 * @hermes/tools — scaffold. The tool registry and everything the model can call. See README.md for the planned API.
 */
export {};
