/**
 * Jittered exponential backoff and the retry loop around one model call. The jitter spreads
 * the retries of many sessions hitting the same rate limit, so they do not all come back at the
 * same instant and trip it again (the thundering herd).
 */
import { isAbortError } from './abort.js';
import { type ClassifiedError, isProviderError, ProviderError } from './classified-error.js';
import { partialTextOf } from './stream/interruption.js';

/** Base of the exponential backoff (the seed's `base_delay`, 5 s). */
export const DEFAULT_BACKOFF_BASE_MS = 5_000;
/** Cap of the exponential part (the seed's `max_delay`, 120 s). */
export const DEFAULT_BACKOFF_MAX_MS = 120_000;
/** Calls in total, the first included (the seed's inner loop: `while retry_count < 3`). */
export const DEFAULT_MAX_ATTEMPTS = 3;

/** Shape of the backoff curve; `random` returns a number in [0, 1). */
export interface BackoffOptions {
  /** The first retry's delay before jitter. Default {@link DEFAULT_BACKOFF_BASE_MS}. */
  readonly baseMs?: number;
  /** Cap of the exponential part (jitter comes on top). Default {@link DEFAULT_BACKOFF_MAX_MS}. */
  readonly maxMs?: number;
  /** The jitter source, injectable for tests. Default `Math.random`. */
  readonly random?: () => number;
}

/**
 * The wait before retry number `attempt` (counting from 1):
 * `min(base · 2^(attempt−1), max) + U[0, 0.5 · that]`. So the result lies in [d, 1.5·d] where d
 * is the capped exponential — at most 180 s with the defaults.
 */
export function backoffDelay(attempt: number, options: BackoffOptions = {}): number {
  const base = options.baseMs ?? DEFAULT_BACKOFF_BASE_MS;
  const max = options.maxMs ?? DEFAULT_BACKOFF_MAX_MS;
  const random = options.random ?? Math.random;
  const exponent = Math.max(0, Math.floor(attempt) - 1);
  // 2 ** exponent is Infinity for huge attempts; min() still lands on the cap.
  const delay = Math.min(base * 2 ** exponent, max);
  return delay + random() * 0.5 * delay;
}

/**
 * The wait before retry number `attempt` after `classified`: the jittered backoff, but never
 * less than the service asked for (`retryAfterMs`). Taking the larger honours `retry-after`
 * while keeping the jitter that stops many sessions returning in lockstep.
 */
export function retryDelay(
  classified: ClassifiedError,
  attempt: number,
  options: BackoffOptions = {},
): number {
  return Math.max(classified.retryAfterMs ?? 0, backoffDelay(attempt, options));
}

/** Waits `ms`, rejecting promptly if `signal` aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

function abortedError(cause: unknown): ProviderError {
  return new ProviderError(
    {
      reason: 'aborted',
      retryable: false,
      shouldCompress: false,
      shouldRotateCredential: false,
      shouldFallback: false,
      message: 'The model call was cancelled.',
    },
    { cause },
  );
}

/** `setTimeout` that rejects with an abort error as soon as `signal` aborts. */
export const defaultSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortedError(signal.reason));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortedError(signal?.reason));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** What {@link RetryOptions.onRetry} is told before each backoff. */
export interface RetryInfo {
  /** The attempt that just failed (1 = the first call). */
  readonly attempt: number;
  /** How long the loop will wait before the next attempt. */
  readonly delayMs: number;
  readonly classified: ClassifiedError;
  readonly error: unknown;
}

/** Settings of {@link callWithRetry}. */
export interface RetryOptions extends BackoffOptions {
  /** Classifies a failure, usually `(e) => classifyApiError(e, context)`. */
  readonly classify: (error: unknown) => ClassifiedError;
  /** Calls in total, the first included. Defaults to {@link DEFAULT_MAX_ATTEMPTS} (3). */
  readonly maxAttempts?: number;
  /**
   * A service asking for a longer wait than this is not waited for: the loop gives up so the
   * caller can rotate the credential or fall back. Defaults to `maxMs` (120 s).
   */
  readonly maxRetryAfterMs?: number;
  /** How to wait between attempts; injectable so tests never really wait. */
  readonly sleep?: Sleep;
  /** Cancels the loop: before a call, and during a backoff sleep, promptly. */
  readonly signal?: AbortSignal;
  /** Told before each backoff (for logs and status lines). */
  readonly onRetry?: (info: RetryInfo) => void;
  /**
   * True once the user has seen streamed text; a retry would show it twice. An error carrying
   * non-empty `partialText` (a stream timeout) counts as well.
   */
  readonly hasStreamedVisibleText?: () => boolean;
  /** Retry even after visible text has streamed (the caller de-duplicates). Default false. */
  readonly retryAfterVisibleText?: boolean;
}

/**
 * Whether resending the same request unchanged may succeed: retryable, and needing no fix
 * first (compression, stripped thinking) — those are the caller's to make before calling again.
 */
export function isTransientFailure(classified: ClassifiedError): boolean {
  return (
    classified.retryable &&
    !classified.shouldCompress &&
    classified.reason !== 'thinking_signature' &&
    classified.reason !== 'aborted'
  );
}

function toProviderError(error: unknown, classified: ClassifiedError): ProviderError {
  return isProviderError(error) ? error : new ProviderError(classified, { cause: error });
}

/** Rejects with an abort error the moment `signal` aborts, whatever `work` is doing. */
function raceAbort<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return work;
  if (signal.aborted) return Promise.reject(abortedError(signal.reason));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortedError(signal.reason));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Visible text reached the user: the caller says so, or the error kept the partial text. */
function visibleTextShown(error: unknown, options: RetryOptions): boolean {
  return options.hasStreamedVisibleText?.() === true || (partialTextOf(error) ?? '') !== '';
}

function shouldStop(
  error: unknown,
  classified: ClassifiedError,
  attempt: number,
  options: RetryOptions,
): boolean {
  if (!isTransientFailure(classified)) return true;
  if (attempt >= (options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS)) return true;
  // A retry would show the user the same text twice.
  if (options.retryAfterVisibleText !== true && visibleTextShown(error, options)) return true;
  const patience = options.maxRetryAfterMs ?? options.maxMs ?? DEFAULT_BACKOFF_MAX_MS;
  return (classified.retryAfterMs ?? 0) > patience;
}

/**
 * Calls `fn(attempt)` (attempt counts from 1) until it resolves, retrying transient failures
 * ({@link isTransientFailure}) after {@link retryDelay}. Stops at once — rethrowing the failure
 * as a {@link ProviderError} — on a non-transient reason, after `maxAttempts` calls, once
 * visible text has streamed (unless `retryAfterVisibleText`), or when the service asks for a
 * wait beyond `maxRetryAfterMs`. An abort, during a call or a backoff, rejects promptly with a
 * `provider.aborted` ProviderError.
 */
export async function callWithRetry<T>(
  fn: (attempt: number) => Promise<T>,
  options: RetryOptions,
): Promise<T> {
  const sleep = options.sleep ?? defaultSleep;
  for (let attempt = 1; ; attempt += 1) {
    if (options.signal?.aborted) throw abortedError(options.signal.reason);
    try {
      return await fn(attempt);
    } catch (error) {
      if (isAbortError(error) || options.signal?.aborted) {
        throw isProviderError(error) && error.classified.reason === 'aborted'
          ? error
          : abortedError(error);
      }
      const classified = options.classify(error);
      if (shouldStop(error, classified, attempt, options)) throw toProviderError(error, classified);
      const delayMs = retryDelay(classified, attempt, options);
      options.onRetry?.({ attempt, delayMs, classified, error });
      await raceAbort(sleep(delayMs, options.signal), options.signal);
    }
  }
}
