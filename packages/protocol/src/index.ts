/**
 * @packageDocumentation
 * The shared vocabulary of Hermes TS: chat messages, tool calls and tool schemas, token usage,
 * finish and exit reasons, approval decisions, the agent event union, and the error base.
 * Schemas are zod; each has an inferred type of the same name without the `Schema` suffix.
 */
export * from './approval-decision.js';
export * from './errors.js';
export * from './events.js';
export * from './exit-reason.js';
export * from './messages.js';
export * from './secret-patterns.js';
export * from './tool-schema.js';
export * from './usage.js';
export * from './validation.js';
