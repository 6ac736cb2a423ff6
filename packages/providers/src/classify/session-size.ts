/**
 * "Is this session big?" — the evidence that turns an otherwise meaningless failure (a dropped
 * connection, a bare 400 "Error") into a probable context overflow.
 */
import type { ErrorContext } from '../classified-error.js';

/** Assumed window when the model's is unknown: the common 200k of current frontier models. */
const DEFAULT_CONTEXT_LENGTH = 200_000;
/** Above this window, absolute token and message counts say nothing about fit. */
const SMALL_WINDOW_LIMIT = 256_000;

/** How much evidence a stage needs before it blames the session size. */
export interface SizeThresholds {
  /** Share of the context window the prompt must exceed. */
  readonly windowShare: number;
  /** Absolute prompt tokens that count as large on a window of 256k or less. */
  readonly tokens: number;
  /** Message count that counts as large on a window of 256k or less. */
  readonly messages: number;
}

/** A dropped connection: a server that silently drops huge requests does so on big sessions. */
export const DISCONNECT_SIZE: SizeThresholds = { windowShare: 0.6, tokens: 120_000, messages: 200 };

/** A bare 400 with no useful message: weaker evidence, so a lower bar (as the seed's port). */
export const BARE_400_SIZE: SizeThresholds = { windowShare: 0.4, tokens: 80_000, messages: 80 };

/** True when the failed request was large by `limits`; false when nothing is known about it. */
export function isLargeSession(context: ErrorContext, limits: SizeThresholds): boolean {
  const tokens = context.approxPromptTokens ?? 0;
  const messages = context.messageCount ?? 0;
  const window = context.contextLength ?? DEFAULT_CONTEXT_LENGTH;
  if (tokens > window * limits.windowShare) return true;
  return window <= SMALL_WINDOW_LIMIT && (tokens > limits.tokens || messages > limits.messages);
}
