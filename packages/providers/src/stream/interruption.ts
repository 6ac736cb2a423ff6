/**
 * What a streaming call rejects with when it was cut short rather than failed: the caller
 * aborted (an abort error that keeps the visible text streamed so far), or the stream went stale
 * (a `timeout` {@link ProviderError}, retryable, also keeping the partial text). Everything else
 * is a service or transport failure for the error classifier.
 */
import { HermesError } from '@hermes/protocol';
import { isAbortError, PROVIDER_ABORTED_CODE } from '../abort.js';
import { type ClassifiedError, ProviderError } from '../classified-error.js';
import { StaleStreamError, type StaleStreamWatchdog } from './stale-watchdog.js';

/**
 * The caller cancelled the call. Code `provider.aborted`, so `isAbortError` recognizes it.
 * {@link partialText} (also `details.partialText`) is the visible text already streamed, which the
 * loop keeps as the interrupted answer.
 */
export class AbortedWithPartialError extends HermesError {
  /** The visible text streamed before the abort; `''` when none. */
  readonly partialText: string;

  constructor(partialText: string, options: { cause?: unknown } = {}) {
    super(PROVIDER_ABORTED_CODE, 'The model call was cancelled.', {
      cause: options.cause,
      details: { partialText },
    });
    this.partialText = partialText;
  }
}

/**
 * The stream went stale: a {@link ProviderError} classified `timeout` (code `provider.timeout`,
 * retryable), whose cause is the watchdog's {@link StaleStreamError} and which keeps the visible
 * text streamed before the stall in {@link partialText} (the retry layer must not retry
 * silently once text was shown, unless the caller opted in).
 */
export class StreamTimeoutError extends ProviderError {
  /** The visible text streamed before the stall; `''` when none. */
  readonly partialText: string;

  constructor(stale: StaleStreamError, partialText: string) {
    const classified: ClassifiedError = {
      reason: 'timeout',
      retryable: true,
      shouldCompress: false,
      shouldRotateCredential: false,
      shouldFallback: true,
      message: stale.message,
    };
    super(classified, { cause: stale });
    this.partialText = partialText;
  }
}

/**
 * A classified failure that happened after part of the answer had streamed: a
 * {@link ProviderError} that also keeps {@link partialText}, the visible text the user already
 * saw. `partialTextOf` reads it, and the retry layer refuses to resend such a request silently.
 * Every adapter raises this one class, so hosts handle all providers alike.
 */
export class PartialStreamError extends ProviderError {
  /** The visible text streamed before the failure; `''` when none. */
  readonly partialText: string;

  constructor(classified: ClassifiedError, partialText: string, options: { cause?: unknown } = {}) {
    super(classified, options);
    this.partialText = partialText;
  }
}

/**
 * The partial visible text an interrupted call kept, from an {@link AbortedWithPartialError} or a
 * {@link StreamTimeoutError} (of any copy of this package); `undefined` for other errors.
 */
export function partialTextOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const own = (error as { partialText?: unknown }).partialText;
  if (typeof own === 'string') return own;
  const details = (error as { details?: { partialText?: unknown } }).details;
  return typeof details?.partialText === 'string' ? details.partialText : undefined;
}

/** What {@link interruptionError} needs to know about the call. */
export interface InterruptionContext {
  /** The caller's `ChatOptions.signal`. */
  readonly callerSignal?: AbortSignal | undefined;
  /** The call's watchdog, if it had one. */
  readonly watchdog?: StaleStreamWatchdog | undefined;
  /** The visible text streamed so far (`StreamAccumulator.partialText()`). */
  readonly partialText: string;
}

function staleReason(error: unknown, context: InterruptionContext): StaleStreamError | undefined {
  if (error instanceof StaleStreamError) return error;
  if (context.callerSignal?.aborted === true || context.watchdog?.stale !== true) return undefined;
  const reason: unknown = context.watchdog.staleSignal.reason;
  return reason instanceof StaleStreamError ? reason : undefined;
}

/**
 * Classifies a failure of a streaming call that was an interruption, or returns `undefined` when
 * it was not (then classify it as a service error):
 * 1. the error is the watchdog's reason (what `abortable` rejects with) → {@link StreamTimeoutError};
 * 2. the caller's signal aborted → {@link AbortedWithPartialError} (the caller's intent wins over
 *    a stall noticed at the same time);
 * 3. the watchdog fired (the SDK threw its own abort error) → {@link StreamTimeoutError};
 * 4. any other abort error → {@link AbortedWithPartialError}.
 * An error that already is one of the two is returned as is.
 */
export function interruptionError(
  error: unknown,
  context: InterruptionContext,
): HermesError | undefined {
  if (error instanceof AbortedWithPartialError || error instanceof StreamTimeoutError) return error;
  const stale = staleReason(error, context);
  if (stale !== undefined) return new StreamTimeoutError(stale, context.partialText);
  if (context.callerSignal?.aborted === true || isAbortError(error)) {
    return new AbortedWithPartialError(context.partialText, { cause: error });
  }
  return undefined;
}
