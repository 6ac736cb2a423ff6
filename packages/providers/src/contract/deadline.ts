/** Waiting for a promise with a deadline, so a contract check fails instead of hanging. */
import { contractViolation } from './stream-assertions.js';

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
