/**
 * @packageDocumentation
 * The ModelProvider seam of Hermes TS: the abstract class every model-service adapter extends,
 * the provider-neutral request, the normalized response, and the one stream-event union.
 * Adapters (OpenAI Chat Completions, OpenAI Responses, Anthropic Messages) arrive with issue 3.
 * The contract suite lives in the `@hermes/providers/testing` subpath.
 */
export * from './abort.js';
export * from './adapters/index.js';
export * from './api-mode.js';
export * from './chat-request.js';
export * from './chat-response.js';
export * from './classified-error.js';
export * from './classify-error.js';
export * from './create-provider.js';
export * from './credentials/index.js';
export * from './fallback/index.js';
export * from './model-info.js';
export * from './model-provider.js';
export * from './models/index.js';
export * from './pooled-provider.js';
export * from './provider-config.js';
export * from './redact.js';
export * from './retry.js';
export * from './retrying-member.js';
export * from './stream/index.js';
export * from './stream-event.js';
