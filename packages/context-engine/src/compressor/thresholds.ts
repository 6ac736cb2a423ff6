/**
 * When automatic compression fires, and how big the protected tail is.
 *
 * The threshold is `window × percent − reservedOutput`, but never below a 64K minimum context:
 * a model with a small window would otherwise compress every few turns. When that floor reaches
 * the window itself there is nothing to protect with it, so 85% of the window is used instead.
 */

/** Below this many tokens a threshold is never set (unless the window itself is that small). */
export const MINIMUM_CONTEXT_TOKENS = 64_000;

/** The share of a window used when the window is no larger than {@link MINIMUM_CONTEXT_TOKENS}. */
export const SMALL_WINDOW_PERCENT = 0.85;

/** Windows under this size get the higher default percent. */
export const LARGE_WINDOW_TOKENS = 512_000;

/**
 * The default share of the window at which compression fires: 0.5 for large windows, 0.75 for
 * windows under 512K (where half the window leaves too little room to work in).
 */
export function defaultThresholdPercent(contextLength: number): number {
  return contextLength < LARGE_WINDOW_TOKENS ? 0.75 : 0.5;
}

/**
 * The prompt size, in tokens, at which automatic compression fires.
 *
 * `window × percent − reservedOutput`, raised to 64,000; when 64,000 reaches the window,
 * `window × 0.85`. Examples: (100000, 0.85) → 85,000; (200000, 0.5) → 100,000;
 * (100000, 0.5) → 64,000; (64000, 0.5) → 54,400; (32000, 0.5) → 27,200.
 */
export function compressionThreshold(
  contextLength: number,
  percent: number,
  reservedOutputTokens = 0,
): number {
  if (MINIMUM_CONTEXT_TOKENS >= contextLength) {
    return Math.floor(contextLength * SMALL_WINDOW_PERCENT);
  }
  const raw = Math.floor(contextLength * percent) - reservedOutputTokens;
  return Math.max(raw, MINIMUM_CONTEXT_TOKENS);
}

/** Tail budget bounds: ≈2.5% of the window, clamped to 10K–25K tokens. */
export const TAIL_BUDGET_SHARE = 0.025;
export const TAIL_BUDGET_MIN_TOKENS = 10_000;
export const TAIL_BUDGET_MAX_TOKENS = 25_000;

/** The token budget of the protected tail for a window. */
export function tailTokenBudget(contextLength: number): number {
  const share = Math.floor(contextLength * TAIL_BUDGET_SHARE);
  return Math.min(TAIL_BUDGET_MAX_TOKENS, Math.max(TAIL_BUDGET_MIN_TOKENS, share));
}
