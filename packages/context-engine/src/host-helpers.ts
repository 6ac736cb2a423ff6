/** What a host uses to talk to whichever engine is configured. */
import type { CompressionTrigger } from '@hermes/protocol';
import type { CompressOptions } from './compression.js';
import type { ContextEngine } from './context-engine.js';

/**
 * The subset of `options` that `engine` declared in `acceptedCompressOptions`, without
 * `undefined` values. Hosts always call `compress` through this, so an engine never receives an
 * option newer than itself.
 */
export function compressOptionsFor(
  engine: Pick<ContextEngine, 'acceptedCompressOptions'>,
  options: CompressOptions,
): CompressOptions {
  const accepted = new Set<string>(engine.acceptedCompressOptions);
  const entries = Object.entries(options).filter(
    ([key, value]) => accepted.has(key) && value !== undefined,
  );
  return Object.fromEntries(entries) as CompressOptions;
}

/** One finished compaction, as far as announcing it is concerned. */
export interface CompactionOutcome {
  readonly trigger: CompressionTrigger;
  readonly ok: boolean;
}

/**
 * Whether to tell the user about a compaction: always for failures and manual `/compress`, and
 * for automatic successes unless the engine set `quietAutoCompaction`.
 */
export function shouldAnnounceCompaction(
  engine: Pick<ContextEngine, 'quietAutoCompaction'>,
  outcome: CompactionOutcome,
): boolean {
  if (!outcome.ok || outcome.trigger === 'manual') return true;
  return !engine.quietAutoCompaction;
}
