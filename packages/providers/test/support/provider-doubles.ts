/**
 * Building blocks of the ModelProvider doubles that the fallback, pool and createProvider tests
 * write at the seam: a plain answer, and the partial text a call streams before it fails.
 */
import type { ChatOptions, ChatRequest } from '../../src/chat-request.js';
import type { ChatResponse } from '../../src/chat-response.js';

/** A finished answer of `content` to `request`, from `provider`, costing one token each way. */
export function answerOf(request: ChatRequest, content: string, provider: string): ChatResponse {
  return {
    message: { role: 'assistant', content },
    finishReason: 'stop',
    usage: {
      inputTokens: 1,
      outputTokens: 1,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
    },
    model: request.model,
    provider,
  };
}

/** Streams the word `partial` as visible text, as a call that fails mid-answer would. */
export function streamPartialText(options: ChatOptions): void {
  options.onEvent?.({ type: 'text_start', index: 0 });
  options.onEvent?.({ type: 'text_delta', index: 0, delta: 'partial' });
}
