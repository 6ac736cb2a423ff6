/**
 * The provider-neutral streaming core every adapter shares: the accumulator that turns wire
 * deltas into normalized events and one `ChatResponse`, the think-block scrubber, the stale-stream
 * watchdog, and the abort helpers.
 */
export * from './abortable.js';
export * from './emission-tracker.js';
export * from './interruption.js';
export * from './response-builder.js';
export * from './stale-watchdog.js';
export * from './think-scrubber.js';
export { defaultToolCallId, type ToolCallHeader, type ToolCallKey } from './tool-call-assembler.js';
export { mergeUsage, type UsageUpdate } from './usage-update.js';
