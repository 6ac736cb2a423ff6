/** The four ways a pool picks the next key among the usable ones. */
import { z } from 'zod';
import type { PooledCredential } from './credential.js';

/**
 * `fill_first` (default): the highest-priority usable key, until it fails.
 * `round_robin`: the next usable key after the one picked last, in priority order.
 * `random`: a uniformly random usable key (the random source is injectable).
 * `least_used`: the usable key with the fewest leases ever, priority breaking ties.
 */
export const PoolStrategySchema = z.enum(['fill_first', 'round_robin', 'random', 'least_used']);
export type PoolStrategy = z.infer<typeof PoolStrategySchema>;

/** What a pick may consult beyond the candidates. */
export interface PickContext {
  /** Every key of the pool in priority order, usable or not (round-robin walks this ring). */
  readonly ordered: readonly PooledCredential[];
  /** The id picked last, for round-robin. */
  readonly lastPickedId: string | undefined;
  /** Returns a number in [0, 1). */
  readonly rng: () => number;
}

/**
 * The lease rule: keep only the usable keys holding the fewest active leases. So a key that is
 * already leased is skipped whenever a usable key with fewer leases exists, and when every key
 * is leased the load still spreads evenly. Applies to `fill_first` and `least_used`, whose
 * choice would otherwise pile every concurrent caller onto one key; `round_robin` and `random`
 * spread load by construction and ignore leases.
 */
export function leastLeased(usable: readonly PooledCredential[]): PooledCredential[] {
  const fewest = Math.min(...usable.map((credential) => credential.activeLeases));
  return usable.filter((credential) => credential.activeLeases === fewest);
}

/**
 * Picks one key from `usable` (non-empty, in priority order) by `strategy`, applying the lease
 * rule of {@link leastLeased} where it belongs.
 */
export function pickCredential(
  strategy: PoolStrategy,
  usable: readonly PooledCredential[],
  context: PickContext,
): PooledCredential {
  const first = usable[0];
  if (first === undefined) throw new RangeError('pickCredential needs at least one usable key');
  switch (strategy) {
    case 'fill_first':
      return leastLeased(usable)[0] ?? first;
    case 'least_used':
      return pickLeastUsed(leastLeased(usable)) ?? first;
    case 'round_robin':
      return pickNextInRing(usable, context) ?? first;
    case 'random':
      return (
        usable[Math.min(usable.length - 1, Math.floor(context.rng() * usable.length))] ?? first
      );
  }
}

function pickLeastUsed(candidates: readonly PooledCredential[]): PooledCredential | undefined {
  let best: PooledCredential | undefined;
  for (const candidate of candidates) {
    // Candidates arrive in priority order, so a strict `<` keeps the higher-priority key on ties.
    if (best === undefined || candidate.useCount < best.useCount) best = candidate;
  }
  return best;
}

function pickNextInRing(
  usable: readonly PooledCredential[],
  context: PickContext,
): PooledCredential | undefined {
  const { ordered, lastPickedId } = context;
  const start = ordered.findIndex((credential) => credential.id === lastPickedId);
  if (start === -1) return usable[0];
  const usableIds = new Set(usable.map((credential) => credential.id));
  for (let step = 1; step <= ordered.length; step += 1) {
    const candidate = ordered[(start + step) % ordered.length];
    if (candidate !== undefined && usableIds.has(candidate.id)) return candidate;
  }
  return usable[0];
}
