/** Anthropic's token usage in Hermes' counters. */
import type { UsageUpdate } from '../stream/usage-update.js';
import type { WireUsage } from './anthropic-wire.js';

/**
 * The counters one usage report carries: `input_tokens` → `inputTokens` (fresh input only;
 * Anthropic counts cache reads and writes apart, as Hermes does), `cache_read_input_tokens` →
 * `cacheReadTokens`, `cache_creation_input_tokens` → `cacheWriteTokens`, `output_tokens` →
 * `outputTokens`, `output_tokens_details.thinking_tokens` → `reasoningTokens`. Counters the
 * report leaves out (or nulls) stay as they were: `message_delta` repeats only some of them.
 */
export function usageUpdateOf(usage: WireUsage | null | undefined): UsageUpdate {
  if (usage === null || usage === undefined) return {};
  return {
    inputTokens: usage.input_tokens,
    outputTokens: usage.output_tokens,
    cacheReadTokens: usage.cache_read_input_tokens,
    cacheWriteTokens: usage.cache_creation_input_tokens,
    reasoningTokens: usage.output_tokens_details?.thinking_tokens,
  };
}
