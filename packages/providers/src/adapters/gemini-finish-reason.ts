/** Gemini's `finishReason` and `promptFeedback.blockReason` as Hermes' normalized finish reason. */
import type { FinishReason } from '@hermes/protocol';

/**
 * | `finishReason`                                                   | finish reason    |
 * | ---------------------------------------------------------------- | ---------------- |
 * | `STOP`                                                           | `stop` (`tool_calls` when the answer called tools: Gemini says STOP) |
 * | `MAX_TOKENS`                                                     | `length`         |
 * | `SAFETY`, `RECITATION`, `BLOCKLIST`, `PROHIBITED_CONTENT`, `SPII`, `IMAGE_SAFETY`, … | `content_filter` |
 * | `MALFORMED_FUNCTION_CALL`, `UNEXPECTED_TOOL_CALL`, `TOO_MANY_TOOL_CALLS` | `error`   |
 * | `OTHER`, `LANGUAGE`, anything else                               | `unknown`        |
 *
 * A policy stop reads as `content_filter`, the same as OpenAI's content filter and Anthropic's
 * `refusal`, so every service's safety block means the same thing to the loop.
 */
const FINISH_REASONS: Readonly<Record<string, FinishReason>> = {
  STOP: 'stop',
  MAX_TOKENS: 'length',
  SAFETY: 'content_filter',
  RECITATION: 'content_filter',
  BLOCKLIST: 'content_filter',
  PROHIBITED_CONTENT: 'content_filter',
  SPII: 'content_filter',
  IMAGE_SAFETY: 'content_filter',
  IMAGE_PROHIBITED_CONTENT: 'content_filter',
  IMAGE_RECITATION: 'content_filter',
  MALFORMED_FUNCTION_CALL: 'error',
  UNEXPECTED_TOOL_CALL: 'error',
  TOO_MANY_TOOL_CALLS: 'error',
};

/** The finish reason of `finishReason` (see the table above). */
export function finishReasonOf(finishReason: string): FinishReason {
  return FINISH_REASONS[finishReason] ?? 'unknown';
}

/**
 * A blocked prompt (`promptFeedback.blockReason`: `SAFETY`, `BLOCKLIST`, `PROHIBITED_CONTENT`,
 * `OTHER`, …): the service refused to answer at all. Every block reason is a policy stop.
 */
export function blockedPromptReason(): FinishReason {
  return 'content_filter';
}
