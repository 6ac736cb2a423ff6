/** Recognizing and raising cancellation the same way in every provider. */
import { HermesError, hasErrorCode } from '@hermes/protocol';

/** The code of the {@link HermesError} a provider raises when a call is cancelled. */
export const PROVIDER_ABORTED_CODE = 'provider.aborted';

/**
 * True when `error` means "the caller cancelled": a DOM-style `AbortError` (what
 * `AbortSignal.abort()` produces and what fetch and the SDKs throw) or a Hermes error with code
 * {@link PROVIDER_ABORTED_CODE}.
 */
export function isAbortError(error: unknown): boolean {
  if (hasErrorCode(error, PROVIDER_ABORTED_CODE)) return true;
  return error instanceof Error && error.name === 'AbortError';
}

/**
 * Throws when `signal` is aborted: its reason if that is already an abort error, otherwise a
 * {@link HermesError} with code {@link PROVIDER_ABORTED_CODE} carrying the reason as `cause`.
 * Call it before starting network work and between steps.
 */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (!signal?.aborted) return;
  const reason: unknown = signal.reason;
  if (isAbortError(reason)) throw reason;
  throw new HermesError(PROVIDER_ABORTED_CODE, 'The model call was cancelled.', { cause: reason });
}
