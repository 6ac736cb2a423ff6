/**
 * @packageDocumentation
 * @hermes/cron — scaffold. Scheduled agent jobs. See README.md for the planned API.
 */
export {};
