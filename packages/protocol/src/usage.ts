/** Token accounting and why a model stopped. */
import { z } from 'zod';

const tokenCount = z.number().int().nonnegative();

/**
 * Token usage of one model call, or the sum over a turn or session. Every counter is present
 * (zero when the provider did not report it) so sums never meet `undefined`.
 */
export const UsageSchema = z.object({
  /** Prompt tokens billed at the full input rate (cache reads and writes excluded). */
  inputTokens: tokenCount,
  /** Generated tokens, reasoning included. */
  outputTokens: tokenCount,
  /** Prompt tokens served from the provider's prompt cache. */
  cacheReadTokens: tokenCount,
  /** Prompt tokens written into the provider's prompt cache. */
  cacheWriteTokens: tokenCount,
  /** The part of `outputTokens` spent on reasoning, when reported. */
  reasoningTokens: tokenCount,
});
export type Usage = z.infer<typeof UsageSchema>;

/** A usage record with every counter at zero. */
export function emptyUsage(): Usage {
  return {
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
  };
}

/** The counter-wise sum of two usage records. */
export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
    reasoningTokens: a.reasoningTokens + b.reasoningTokens,
  };
}

/** Total prompt tokens the model saw: fresh input plus cache reads and writes. */
export function promptTokens(usage: Usage): number {
  return usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
}

/**
 * Why the model stopped, normalized across providers: `stop` (natural end), `tool_calls`,
 * `length` (output limit), `content_filter`, `refusal`, `error`, `unknown`.
 */
export const FinishReasonSchema = z.enum([
  'stop',
  'tool_calls',
  'length',
  'content_filter',
  'refusal',
  'error',
  'unknown',
]);
export type FinishReason = z.infer<typeof FinishReasonSchema>;
