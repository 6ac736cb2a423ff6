/**
 * The {@link SessionLane} contract as plain checks (each throws a `ContractViolation`) and as a
 * vitest suite, so a database-backed lane (PostgreSQL advisory locks) proves the same behaviour
 * as the in-process one. Exported from `@hermes/gateway/testing`; imports only the lane's type.
 */
import { contractViolation, within } from '@hermes/protocol/testing';
import { describe, it } from 'vitest';
import type { LaneLease, SessionLane } from './session-lane.js';

/** Makes a fresh lane allowing `maxConcurrent` turns at once. */
export type SessionLaneFactory = (options: {
  readonly maxConcurrent: number;
}) => SessionLane | Promise<SessionLane>;

/** Tuning for the lane contract. */
export interface SessionLaneContractOptions {
  /**
   * Resolves once the lane has had every chance to grant what it can grant now, before a check
   * that a waiter is still waiting. Default: one macrotask (enough for an in-process lane); a
   * lane that asks a database should wait for its own round trip.
   */
  readonly settle?: () => Promise<void>;
  /** How long a lease that must be granted may take, ms (a backstop). Default 10,000. */
  readonly grantTimeoutMs?: number;
}

const macrotask = () => new Promise<void>((resolve) => setImmediate(resolve));

/** An acquire whose outcome can be looked at without awaiting it. */
interface Tracked {
  readonly promise: Promise<LaneLease>;
  state: 'waiting' | 'granted' | 'rejected';
  error?: unknown;
}

function track(promise: Promise<LaneLease>): Tracked {
  const tracked: Tracked = { promise, state: 'waiting' };
  promise.then(
    () => {
      tracked.state = 'granted';
    },
    (error: unknown) => {
      tracked.state = 'rejected';
      tracked.error = error;
    },
  );
  return tracked;
}

interface Ctx {
  readonly settle: () => Promise<void>;
  readonly grantMs: number;
}

async function expectWaiting(ctx: Ctx, what: string, ...waiters: Tracked[]): Promise<void> {
  await ctx.settle();
  if (waiters.some((w) => w.state !== 'waiting')) contractViolation(`${what} did not wait`);
}

async function granted(ctx: Ctx, tracked: Tracked, what: string): Promise<LaneLease> {
  return within(tracked.promise, ctx.grantMs, what);
}

function context(options: SessionLaneContractOptions): Ctx {
  return { settle: options.settle ?? macrotask, grantMs: options.grantTimeoutMs ?? 10_000 };
}

/** One lease per key at a time; waiters for a key get it in the order they asked. */
export async function checkOneHolderPerKeyInOrder(
  factory: SessionLaneFactory,
  options: SessionLaneContractOptions = {},
): Promise<void> {
  const ctx = context(options);
  const lane = await factory({ maxConcurrent: 4 });
  const first = await lane.acquire('k');
  if (!lane.isHeld('k') || !lane.held().includes('k')) contractViolation('a held key is not held');
  const second = track(lane.acquire('k'));
  const third = track(lane.acquire('k'));
  await expectWaiting(ctx, 'a second acquire of a held key', second, third);
  first.release();
  (await granted(ctx, second, 'the first waiter after release')).release();
  (await granted(ctx, third, 'the second waiter after release')).release();
  if (lane.isHeld('k') || lane.held().length !== 0) contractViolation('released keys stay held');
}

/** Different keys run together up to `maxConcurrent`; the next waits for a free slot. */
export async function checkGlobalBound(
  factory: SessionLaneFactory,
  options: SessionLaneContractOptions = {},
): Promise<void> {
  const ctx = context(options);
  const lane = await factory({ maxConcurrent: 2 });
  const a = await lane.acquire('a');
  const b = await lane.acquire('b');
  const c = track(lane.acquire('c'));
  await expectWaiting(ctx, 'an acquire beyond maxConcurrent', c);
  b.release();
  (await granted(ctx, c, 'a waiter once a slot freed')).release();
  a.release();
}

/** Aborting a waiting acquire rejects it with an AbortError and leaves the queue as it was. */
export async function checkAbortWhileWaiting(
  factory: SessionLaneFactory,
  options: SessionLaneContractOptions = {},
): Promise<void> {
  const ctx = context(options);
  const lane = await factory({ maxConcurrent: 4 });
  const holder = await lane.acquire('k');
  const controller = new AbortController();
  const aborted = track(lane.acquire('k', controller.signal));
  const next = track(lane.acquire('k'));
  await expectWaiting(ctx, 'waiters behind a holder', aborted, next);
  controller.abort();
  await ctx.settle();
  if (aborted.state !== 'rejected' || (aborted.error as Error | undefined)?.name !== 'AbortError') {
    contractViolation('an aborted waiter did not reject with an AbortError');
  }
  await expectWaiting(ctx, 'the waiter behind an aborted one, while the key is held', next);
  holder.release();
  (await granted(ctx, next, 'the waiter behind an aborted one')).release();
  const early = track(lane.acquire('k', AbortSignal.abort()));
  await ctx.settle();
  if (early.state !== 'rejected') contractViolation('an already aborted signal was granted');
  if (lane.isHeld('k')) contractViolation('an aborted acquire left the key held');
}

/** Releasing twice frees one slot, not two; aborting after the grant changes nothing. */
export async function checkReleaseIdempotent(
  factory: SessionLaneFactory,
  options: SessionLaneContractOptions = {},
): Promise<void> {
  const ctx = context(options);
  const lane = await factory({ maxConcurrent: 1 });
  const controller = new AbortController();
  const lease = await lane.acquire('a', controller.signal);
  controller.abort();
  if (!lane.isHeld('a')) contractViolation('aborting after the grant released the lease');
  const b = track(lane.acquire('b'));
  const c = track(lane.acquire('c'));
  lease.release();
  lease.release();
  const leaseB = await granted(ctx, b, 'a waiter after release');
  await expectWaiting(ctx, 'a second waiter after a double release (one slot)', c);
  leaseB.release();
  const leaseC = await granted(ctx, c, 'the last waiter');
  // A stale lease of a key must not release the key's next holder.
  const again = track(lane.acquire('a'));
  leaseC.release();
  const nextA = await granted(ctx, again, 'the key after its old lease was released');
  lease.release();
  if (!lane.isHeld('a')) contractViolation("a stale release freed the key's new holder");
  const d = track(lane.acquire('d'));
  await expectWaiting(ctx, 'an acquire while the only slot is held', d);
  nextA.release();
  (await granted(ctx, d, 'the waiter after the new holder released')).release();
}

/** Every check, by name, for callers that run them outside vitest. */
export const sessionLaneChecks = {
  checkOneHolderPerKeyInOrder,
  checkGlobalBound,
  checkAbortWhileWaiting,
  checkReleaseIdempotent,
} as const;

/** Registers the {@link SessionLane} contract as a vitest `describe` block. */
export function describeSessionLaneContract(
  label: string,
  factory: SessionLaneFactory,
  options: SessionLaneContractOptions = {},
): void {
  describe(`SessionLane contract: ${label}`, () => {
    it('holds one lease per key at a time and grants waiters in order', () =>
      checkOneHolderPerKeyInOrder(factory, options));
    it('runs different keys together up to maxConcurrent', () =>
      checkGlobalBound(factory, options));
    it('rejects an aborted waiter and keeps the queue as it was', () =>
      checkAbortWhileWaiting(factory, options));
    it('frees one slot however often a lease is released', () =>
      checkReleaseIdempotent(factory, options));
  });
}
