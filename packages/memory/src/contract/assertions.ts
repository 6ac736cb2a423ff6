/**
 * Reusable checks of memory-provider behaviour. They throw a `ContractViolation` naming the first
 * problem, so they work inside and outside a test runner.
 */
import { isHermesError } from '@hermes/protocol';
import { contractViolation, type Settled } from '@hermes/protocol/testing';

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
