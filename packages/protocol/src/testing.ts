/**
 * @packageDocumentation
 * Primitives shared by every seam's contract suite (`@hermes/<seam>/testing`): one error type for
 * a broken contract, and deadlines so a misbehaving implementation fails a check instead of
 * hanging it. Plain functions with no test-runner dependency, so checks run inside and outside
 * vitest.
 */

/** A seam implementation broke its contract. The message names the first problem found. */
export class ContractViolation extends Error {
  override readonly name = 'ContractViolation';
}

/** Throws a {@link ContractViolation} with `message`. */
export function contractViolation(message: string): never {
  throw new ContractViolation(message);
}

/** True when `error` is a {@link ContractViolation}, from any copy of this package. */
export function isContractViolation(error: unknown): error is ContractViolation {
  return error instanceof Error && error.name === 'ContractViolation';
}

/** How a promise settled. */
export type Settled<T> =
  | { readonly status: 'fulfilled'; readonly value: T }
  | { readonly status: 'rejected'; readonly reason: unknown };

/**
 * Lets the callbacks of I/O that completed while this process was not running (a loaded machine
 * descheduled it) run before a deadline is judged. A timer that came due meanwhile runs first in
 * the event loop's turn, before those callbacks; one `setImmediate` runs after them.
 */
function drainPendingEvents(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Resolves to how `promise` settled, or throws a {@link ContractViolation} naming `what` when it
 * has not settled within `ms` milliseconds. A promise whose event arrived by the deadline counts
 * as settled even when this process was stalled past the deadline before it could handle it.
 */
export async function settleWithin<T>(
  promise: Promise<T>,
  ms: number,
  what: string,
): Promise<Settled<T>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let settled: Settled<T> | undefined;
  const outcome = promise.then(
    (value): Settled<T> => (settled = { status: 'fulfilled', value }),
    (reason: unknown): Settled<T> => (settled = { status: 'rejected', reason }),
  );
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  try {
    const first = await Promise.race([outcome, timeout]);
    if (first !== 'timeout') return first;
    await drainPendingEvents();
    if (settled) return settled;
    contractViolation(`${what} did not settle within ${ms} ms`);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Resolves with `promise`'s value, rethrows its rejection, or throws a {@link ContractViolation}
 * naming `what` when it has not settled within `ms` milliseconds.
 */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  const settled = await settleWithin(promise, ms, what);
  if (settled.status === 'rejected') throw settled.reason;
  return settled.value;
}

/**
 * Polls `condition` every `intervalMs` until it holds (→ `true`) or `ms` have passed (→ `false`).
 * At the deadline the events already waiting to be handled run first, so a condition that an
 * event made true while this process was stalled still counts.
 */
export async function waitFor(
  condition: () => boolean,
  ms: number,
  intervalMs = 5,
): Promise<boolean> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() >= end) {
      await drainPendingEvents();
      return condition();
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  return true;
}

/**
 * Freezes `value` and every object reachable from it (own string and symbol keys, enumerable or
 * not), so a check can prove an implementation does not mutate its input. Already-frozen
 * containers are still walked; typed arrays and buffers are left as they are, since JavaScript
 * cannot freeze their elements.
 */
export function deepFreeze<T>(value: T): T {
  freezeReachable(value, new WeakSet());
  return value;
}

function freezeReachable(value: unknown, seen: WeakSet<object>): void {
  if (typeof value !== 'object' || value === null || seen.has(value)) return;
  seen.add(value);
  if (ArrayBuffer.isView(value)) return;
  Object.freeze(value);
  for (const key of Reflect.ownKeys(value)) {
    freezeReachable((value as Record<PropertyKey, unknown>)[key], seen);
  }
}
