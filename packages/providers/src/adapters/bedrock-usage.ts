/** Bedrock's token usage and stop reasons in Hermes' terms. */
import type { FinishReason } from '@hermes/protocol';
import type { UsageUpdate } from '../stream/usage-update.js';
import type { WireUsage } from './bedrock-wire.js';

/**
 * The counters of one usage report: `inputTokens` → `inputTokens` (fresh input only: like
 * Anthropic, Bedrock counts cache reads and writes apart, and `totalTokens` adds them all up),
 * `cacheReadInputTokens` → `cacheReadTokens`, `cacheWriteInputTokens` → `cacheWriteTokens`,
 * `outputTokens` → `outputTokens`. Bedrock reports no reasoning-token count.
 */
export function bedrockUsageUpdate(usage: WireUsage | undefined): UsageUpdate {
  if (usage === undefined) return {};
  return {
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    cacheReadTokens: usage.cacheReadInputTokens,
    cacheWriteTokens: usage.cacheWriteInputTokens,
  };
}

/**
 * | `stopReason`                    | finish reason    | why                                    |
 * | ------------------------------- | ---------------- | -------------------------------------- |
 * | `end_turn`, `stop_sequence`     | `stop`           | a natural end                          |
 * | `tool_use`                      | `tool_calls`     |                                        |
 * | `max_tokens`                    | `length`         | the output limit                       |
 * | `model_context_window_exceeded` | `length`         | cut off by the window                  |
 * | `content_filtered`              | `content_filter` | the model's own safety stop            |
 * | `guardrail_intervened`          | `content_filter` | a Bedrock guardrail stopped the answer |
 * | anything else                   | `unknown`        |                                        |
 */
const FINISH_REASONS: Readonly<Record<string, FinishReason>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  tool_use: 'tool_calls',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  content_filtered: 'content_filter',
  guardrail_intervened: 'content_filter',
};

/** The finish reason of a Bedrock `stopReason` (see the table above). */
export function bedrockFinishReason(stopReason: string): FinishReason {
  return FINISH_REASONS[stopReason] ?? 'unknown';
}
