/**
 * The proactive prune: on an absolute token trigger (off by default), run phase 1 only, keep
 * the result only when it reclaims enough, then raise a re-arm line. Pruning rewrites history
 * the provider has cached, so cache breaks must be rare and batched, not one per tool call.
 */
import type { ChatMessage } from '@hermes/protocol';
import { pruneToolResults } from './prune.js';
import { estimateTokens } from './token-estimate.js';
import { groupStartAtOrBefore } from './tool-groups.js';

/** Settings of the proactive prune. */
export interface ProactivePruneSettings {
  /** Absolute trigger in tokens; 0 = off. */
  readonly triggerTokens: number;
  /** The least a prune must reclaim to be kept. */
  readonly minReclaimTokens: number;
  /** Messages at the end never touched (by count: a token tail would protect everything). */
  readonly protectLastN: number;
  readonly keepImages: number;
  readonly maxArgumentChars: number;
}

/** What one proactive prune decided. */
export interface ProactivePruneOutcome {
  readonly messages: readonly ChatMessage[];
  readonly reclaimedTokens: number;
  /** The new re-arm line when committed; unchanged otherwise. */
  readonly rearmTokens: number;
}

/**
 * Prunes when the trigger is on, `currentTokens` reached it and the re-arm line, and phase 1
 * reclaims at least the minimum. Otherwise returns the input array and 0.
 */
export function proactivePrune(
  messages: readonly ChatMessage[],
  currentTokens: number | undefined,
  rearmTokens: number,
  settings: ProactivePruneSettings,
): ProactivePruneOutcome {
  const unchanged = { messages, reclaimedTokens: 0, rearmTokens };
  if (settings.triggerTokens <= 0) return unchanged;
  const size = currentTokens ?? estimateTokens(messages);
  if (size < settings.triggerTokens || size < rearmTokens) return unchanged;
  const protectFrom = groupStartAtOrBefore(
    messages,
    Math.max(0, messages.length - settings.protectLastN),
  );
  if (protectFrom <= 1) return unchanged;
  const outcome = pruneToolResults(messages, {
    protectFrom,
    keepImages: settings.keepImages,
    maxArgumentChars: settings.maxArgumentChars,
  });
  if (outcome.reclaimedTokens < settings.minReclaimTokens) return unchanged;
  const after = size - outcome.reclaimedTokens;
  const step = Math.max(outcome.reclaimedTokens, settings.triggerTokens, settings.minReclaimTokens);
  return {
    messages: outcome.messages,
    reclaimedTokens: outcome.reclaimedTokens,
    rearmTokens: after + step,
  };
}
