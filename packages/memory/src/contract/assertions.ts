/**
 * Reusable checks of memory-provider behaviour. They throw a plain `Error` naming the first
 * problem, so they work inside and outside a test runner.
 */
import { isHermesError } from '@hermes/protocol';

/** Throws an `Error` with the given message; its name marks it as a contract violation. */
export function contractViolation(message: string): never {
  const error = new Error(message);
  error.name = 'ContractViolation';
  throw error;
}

/** How a promise settled. */
export type Settled<T> =
  | { readonly status: 'fulfilled'; readonly value: T }
  | { readonly status: 'rejected'; readonly reason: unknown };

/**
 * Resolves to how `promise` settled, or throws a contract violation naming `what` when it has not
 * settled within `ms` milliseconds.
 */
export async function settleWithin<T>(
  promise: Promise<T>,
  ms: number,
  what: string,
): Promise<Settled<T>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const outcome = promise.then(
    (value): Settled<T> => ({ status: 'fulfilled', value }),
    (reason: unknown): Settled<T> => ({ status: 'rejected', reason }),
  );
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  try {
    const first = await Promise.race([outcome, timeout]);
    if (first === 'timeout') contractViolation(`${what} did not settle within ${ms} ms`);
    return first;
  } finally {
    clearTimeout(timer);
  }
}

/** True for a DOM-style `AbortError` or any Hermes error (a classified cancellation). */
export function isAbortLike(error: unknown): boolean {
  return isHermesError(error) || (error instanceof Error && error.name === 'AbortError');
}

/**
 * Asserts a prefetch outcome is acceptable after an abort: a string, or a rejection with an
 * abort-like error.
 */
export function assertAbortedPrefetchOutcome(settled: Settled<unknown>, what: string): void {
  if (settled.status === 'fulfilled') {
    if (typeof settled.value !== 'string') contractViolation(`${what} must resolve to a string`);
    return;
  }
  if (!isAbortLike(settled.reason)) {
    contractViolation(`${what} rejected with ${String(settled.reason)}, not an abort error`);
  }
}
