/**
 * @packageDocumentation
 * The ModelProvider seam of Hermes TS: the abstract class every model-service adapter extends,
 * the provider-neutral request, the normalized response, and the one stream-event union.
 * Adapters (OpenAI Chat Completions, OpenAI Responses, Anthropic Messages) arrive with issue 3.
 * The contract suite lives in the `@hermes/providers/testing` subpath.
 */
export * from './abort.js';
export * from './chat-request.js';
export * from './chat-response.js';
export * from './model-info.js';
export * from './model-provider.js';
export * from './stream-event.js';
