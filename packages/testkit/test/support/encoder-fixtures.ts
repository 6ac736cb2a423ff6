/** Fixed inputs of the encoder unit tests, so that ids, timestamps and token counts are exact. */
import type { EncodeContext } from '../../src/protocols/encoder.ts';
import type { ScriptTurnInput } from '../../src/script.ts';

/**
 * A usage with every field set and each a different number: 10 fresh input, 5 cache-read and
 * 2 cache-write input tokens; 7 output tokens, 3 of them reasoning.
 */
export const EVERY_USAGE_FIELD = {
  inputTokens: 10,
  cacheReadTokens: 5,
  cacheWriteTokens: 2,
  outputTokens: 7,
  reasoningTokens: 3,
} as const satisfies ScriptTurnInput['usage'];

/** An encode context for `model` and `responseId`, created at a fixed instant (1_700_000_000). */
export function fixedContext(
  model: string,
  responseId: string,
  includeUsage = false,
): EncodeContext {
  return { model, includeUsage, responseId, created: 1_700_000_000 };
}
