/**
 * @packageDocumentation
 * @hermes/testkit — scaffold. A scripted local model server for tests: real HTTP, real wire protocols, no internet. See README.md for the planned API.
 */
export {};
