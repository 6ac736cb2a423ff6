/** Folding the usage reports of one stream into one record. */
import type { Usage } from '@hermes/protocol';

/**
 * Some usage counters as one wire event reports them. Absent, `null` and invalid values (negative,
 * not finite) leave the counter as it was.
 */
export type UsageUpdate = { readonly [K in keyof Usage]?: number | null | undefined };

const COUNTERS = [
  'inputTokens',
  'outputTokens',
  'cacheReadTokens',
  'cacheWriteTokens',
  'reasoningTokens',
] as const satisfies readonly (keyof Usage)[];

/**
 * Returns `current` with every valid counter of `update` replacing its own, or `undefined` when
 * nothing changed. Replace, not add: services report cumulative counts (Anthropic sends input
 * counts in `message_start` and the running output count in each `message_delta`), so the latest
 * value of a counter is its value for the call. Fractions are truncated.
 */
export function mergeUsage(current: Usage, update: UsageUpdate): Usage | undefined {
  let merged: Usage | undefined;
  for (const key of COUNTERS) {
    const value = update[key];
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) continue;
    const count = Math.trunc(value);
    if (count === current[key]) continue;
    merged ??= { ...current };
    merged[key] = count;
  }
  return merged;
}
