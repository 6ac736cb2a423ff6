/** Gemini's `usageMetadata` in Hermes' counters. */
import type { UsageUpdate } from '../stream/usage-update.js';
import type { WireUsage } from './gemini-wire.js';

/**
 * Gemini counts differently from Hermes on both sides:
 * - `promptTokenCount` includes the cached tokens (`cachedContentTokenCount`), which Hermes
 *   counts apart: fresh input is the difference. Gemini reports no cache writes.
 * - `candidatesTokenCount` excludes the thinking (`thoughtsTokenCount`), while Hermes'
 *   `outputTokens` includes reasoning: output is their sum.
 * A report without a counter leaves it as it was (the stream's early frames may carry none).
 */
export function usageUpdateOf(usage: WireUsage | null | undefined): UsageUpdate {
  if (usage === null || usage === undefined) return {};
  const cached = usage.cachedContentTokenCount ?? 0;
  const thoughts = usage.thoughtsTokenCount ?? 0;
  const prompt = usage.promptTokenCount;
  const candidates = usage.candidatesTokenCount;
  const hasOutput = candidates !== undefined || usage.thoughtsTokenCount !== undefined;
  return {
    inputTokens: prompt === undefined ? undefined : Math.max(0, prompt - cached),
    cacheReadTokens: prompt === undefined ? usage.cachedContentTokenCount : cached,
    outputTokens: hasOutput ? (candidates ?? 0) + thoughts : undefined,
    reasoningTokens: hasOutput ? thoughts : undefined,
  };
}
