/** Runs a provider call so that it can never break a turn: bounded in time, errors contained. */
import { setTimeout as sleep } from 'node:timers/promises';

/** The outcome of {@link boundedCall}. */
export type BoundedOutcome<T> =
  | { readonly status: 'ok'; readonly value: T }
  | { readonly status: 'timeout' }
  | { readonly status: 'failed'; readonly error: unknown };

/**
 * Calls `fn` with a signal that aborts after `timeoutMs`, and settles by then at the latest, even
 * if `fn` ignores the signal. A synchronous throw counts as a failure like a rejection does.
 */
export async function boundedCall<T>(
  fn: (signal: AbortSignal) => Promise<T>,
  timeoutMs: number,
): Promise<BoundedOutcome<T>> {
  const controller = new AbortController();
  const timer = new AbortController();
  const call = Promise.resolve()
    .then(() => fn(controller.signal))
    .then(
      (value): BoundedOutcome<T> => ({ status: 'ok', value }),
      (error: unknown): BoundedOutcome<T> => ({ status: 'failed', error }),
    );
  const timeout = sleep(timeoutMs, { status: 'timeout' } as const, { signal: timer.signal }).catch(
    () => undefined,
  );
  const first = await Promise.race([call, timeout]);
  timer.abort();
  if (first === undefined || first.status === 'timeout') {
    controller.abort();
    return { status: 'timeout' };
  }
  return first;
}
