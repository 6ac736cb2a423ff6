/** A turn's token usage in the two OpenAI shapes (cache reads and writes count as prompt). */
import type { Usage } from '@hermes/protocol';

/** `usage` of a chat completion. */
export function chatUsage(usage: Usage): Record<string, unknown> {
  const prompt = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
  return {
    prompt_tokens: prompt,
    completion_tokens: usage.outputTokens,
    total_tokens: prompt + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: usage.cacheReadTokens },
    completion_tokens_details: { reasoning_tokens: usage.reasoningTokens },
  };
}

/** `usage` of a Responses API response (and of a run). */
export function responsesUsage(usage: Usage): Record<string, unknown> {
  const input = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: usage.cacheReadTokens },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens },
    total_tokens: input + usage.outputTokens,
  };
}
