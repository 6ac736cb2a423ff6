/** Anthropic's `stop_reason` as Hermes' normalized finish reason. */
import type { FinishReason } from '@hermes/protocol';

/**
 * | `stop_reason`                   | finish reason    | why                                          |
 * | ------------------------------- | ---------------- | -------------------------------------------- |
 * | `end_turn`, `stop_sequence`     | `stop`           | a natural end                                |
 * | `tool_use`                      | `tool_calls`     |                                              |
 * | `max_tokens`                    | `length`         | the output limit                             |
 * | `model_context_window_exceeded` | `length`         | cut off by the window: a truncated answer too |
 * | `refusal`                       | `content_filter` | see below                                    |
 * | `pause_turn`, anything else     | `unknown`        | an unfinished turn Hermes cannot continue    |
 *
 * `refusal` means the API's safety classifiers stopped the output mid-answer. That is what OpenAI
 * reports as `content_filter`, so both services' policy stops read the same to the loop.
 */
const FINISH_REASONS: Readonly<Record<string, FinishReason>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  tool_use: 'tool_calls',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  refusal: 'content_filter',
};

/** The finish reason of `stopReason` (see the table above). */
export function finishReasonOf(stopReason: string): FinishReason {
  return FINISH_REASONS[stopReason] ?? 'unknown';
}
