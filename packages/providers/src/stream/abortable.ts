/**
 * Making a pending SDK call or stream give way to an `AbortSignal` at once. The SDKs do stop when
 * their signal aborts, but only once the socket is torn down, which can take a while on a slow
 * or wedged connection; the contract is that `chat` rejects within 100 ms of an abort. These
 * helpers reject immediately and leave the SDK to finish its cleanup in the background.
 */
import { HermesError } from '@hermes/protocol';
import { PROVIDER_ABORTED_CODE } from '../abort.js';

/** The reason to reject with when `signal` aborted: its own reason, or a Hermes abort error. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new HermesError(PROVIDER_ABORTED_CODE, 'The model call was cancelled.');
}

function ignoreRejection(promise: PromiseLike<unknown>): void {
  Promise.resolve(promise).catch(() => undefined);
}

/**
 * Settles like `promise`, except that it rejects with the signal's reason as soon as `signal`
 * aborts (or at once, when it already has). A rejection of `promise` after an abort also turns
 * into the signal's reason, and is never left unhandled.
 */
export function raceAbort<T>(promise: PromiseLike<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return Promise.resolve(promise);
  if (signal.aborted) {
    ignoreRejection(promise);
    return Promise.reject(abortReason(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(signal.aborted ? abortReason(signal) : error);
      },
    );
  });
}

/**
 * An async iterator whose every `next()` races the signal. One abort listener serves the whole
 * iteration (no per-chunk listener churn, no promise-race leak on a never-settling promise).
 */
class AbortableIterator<T> implements AsyncIterableIterator<T> {
  private readonly source: AsyncIterator<T>;
  private readonly signal: AbortSignal;
  private rejectPending: ((reason: unknown) => void) | undefined;
  private detached = false;

  constructor(source: AsyncIterator<T>, signal: AbortSignal) {
    this.source = source;
    this.signal = signal;
    signal.addEventListener('abort', this.onAbort, { once: true });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }

  next(): Promise<IteratorResult<T>> {
    if (this.signal.aborted) {
      this.release();
      return Promise.reject(abortReason(this.signal));
    }
    return new Promise<IteratorResult<T>>((resolve, reject) => {
      this.rejectPending = reject;
      let pending: Promise<IteratorResult<T>>;
      try {
        pending = this.source.next();
      } catch (error) {
        this.settled();
        reject(error);
        return;
      }
      pending.then(
        (result) => {
          this.settled();
          if (result.done === true) this.detach();
          resolve(result);
        },
        (error: unknown) => {
          this.settled();
          this.detach();
          reject(this.signal.aborted ? abortReason(this.signal) : error);
        },
      );
    });
  }

  /** Early exit (`break` in `for await`): lets the source clean up, and waits for it. */
  async return(): Promise<IteratorResult<T>> {
    this.detach();
    await this.source.return?.();
    return { done: true, value: undefined };
  }

  private readonly onAbort = (): void => {
    const reject = this.rejectPending;
    this.rejectPending = undefined;
    this.release();
    reject?.(abortReason(this.signal));
  };

  private settled(): void {
    this.rejectPending = undefined;
  }

  private detach(): void {
    if (this.detached) return;
    this.detached = true;
    this.signal.removeEventListener('abort', this.onAbort);
  }

  /** After an abort: ask the source to close, without waiting and without unhandled rejections. */
  private release(): void {
    const wasDetached = this.detached;
    this.detach();
    if (wasDetached) return;
    try {
      const closing = this.source.return?.();
      if (closing !== undefined) ignoreRejection(closing);
    } catch {
      // A source that throws while closing has nothing left for us to release.
    }
  }
}

/**
 * Wraps `source` (an SDK stream) so that iteration rejects with the signal's reason as soon as
 * `signal` aborts, even while the source's `next()` is still pending; the source is then asked to
 * close in the background. Without a signal, `source` is iterated as is.
 *
 * ```ts
 * for await (const chunk of abortable(stream, watchdog.signal)) { watchdog.touch(); … }
 * ```
 */
export function abortable<T>(
  source: AsyncIterable<T>,
  signal: AbortSignal | undefined,
): AsyncIterableIterator<T> {
  const iterator = source[Symbol.asyncIterator]();
  if (signal === undefined) {
    return {
      next: () => iterator.next(),
      return: async () => (await iterator.return?.()) ?? { done: true, value: undefined },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
  }
  return new AbortableIterator(iterator, signal);
}
