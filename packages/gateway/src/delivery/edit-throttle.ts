/** At most one edit of a streamed message per interval: platforms rate-limit edits. */
import type { Timers } from './timers.js';

/**
 * Runs `flush` at most once per `intervalMs`: at once when the interval has passed since the
 * last run, else once at its end (a trailing run, so the latest text always shows). The caller
 * reports when a run actually touched the chat with {@link EditThrottle.ran}; requests while a
 * trailing run is scheduled are merged into it.
 */
export class EditThrottle {
  readonly #intervalMs: number;
  readonly #clock: () => number;
  readonly #timers: Timers;
  readonly #flush: () => void;
  #last = Number.NEGATIVE_INFINITY;
  #timer: unknown;
  #scheduled = false;

  constructor(intervalMs: number, clock: () => number, timers: Timers, flush: () => void) {
    this.#intervalMs = intervalMs;
    this.#clock = clock;
    this.#timers = timers;
    this.#flush = flush;
  }

  /** Asks for a flush: now, or at the end of the current interval. */
  request(): void {
    if (this.#scheduled) return;
    const wait = this.#last + this.#intervalMs - this.#clock();
    if (wait <= 0) {
      this.#flush();
      return;
    }
    this.#scheduled = true;
    this.#timer = this.#timers.setTimeout(() => {
      this.#scheduled = false;
      this.#timer = undefined;
      this.#flush();
    }, wait);
  }

  /** Records that a flush edited or sent something now; the next interval starts here. */
  ran(): void {
    this.#last = this.#clock();
  }

  /** Drops a scheduled trailing flush (the final edit is made without the throttle). */
  cancel(): void {
    if (this.#scheduled) this.#timers.clearTimeout(this.#timer);
    this.#scheduled = false;
    this.#timer = undefined;
  }
}
