/** The cap on turns the API server runs at once (`max_concurrent_runs`). */
import { ApiError } from './api-error.js';

/** How long a refused client should wait before trying again, in seconds. */
export const RETRY_AFTER_SECONDS = 2;

/** Counts running turns; a turn over the cap is refused with 429 and `Retry-After`. */
export class TurnSlots {
  readonly #max: number;
  #running = 0;

  /** @param max - Turns at once; 0 means no cap. */
  constructor(max: number) {
    this.#max = max;
  }

  /** Turns running now. */
  get running(): number {
    return this.#running;
  }

  /**
   * Takes a slot for a new turn and returns the function that gives it back (idempotent).
   *
   * @throws ApiError 429 with `Retry-After` when every slot is taken.
   */
  acquire(): () => void {
    if (this.#max > 0 && this.#running >= this.#max) {
      throw new ApiError(
        429,
        `Too many runs in progress (max_concurrent_runs is ${this.#max}). Try again shortly.`,
        {
          code: 'too_many_runs',
          headers: { 'retry-after': String(RETRY_AFTER_SECONDS) },
        },
      );
    }
    this.#running += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#running -= 1;
    };
  }
}
