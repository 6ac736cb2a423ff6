/**
 * Delivery ids already accepted, so a replayed or retried delivery never starts a second turn.
 * Ids are kept 24 hours, and at most {@link MAX_SEEN_DELIVERIES} of them (the oldest go first).
 */

/** How long an accepted delivery id is remembered. */
export const SEEN_DELIVERY_TTL_MS = 24 * 3_600_000;
/** The most ids remembered at once, so a flood cannot grow memory without bound. */
export const MAX_SEEN_DELIVERIES = 10_000;

/** Accepted delivery ids with the time they were accepted, oldest first. */
export class SeenDeliveries {
  readonly #seen = new Map<string, number>();
  readonly #clock: () => number;
  readonly #max: number;

  constructor(clock: () => number = Date.now, max = MAX_SEEN_DELIVERIES) {
    this.#clock = clock;
    this.#max = max;
  }

  get size(): number {
    return this.#seen.size;
  }

  /** Whether `key` was accepted within the last 24 hours. */
  has(key: string): boolean {
    this.#expire();
    return this.#seen.has(key);
  }

  /** Remembers `key` as accepted now. */
  add(key: string): void {
    this.#expire();
    this.#seen.delete(key);
    this.#seen.set(key, this.#clock());
    while (this.#seen.size > this.#max) {
      const oldest = this.#seen.keys().next().value;
      if (oldest === undefined) break;
      this.#seen.delete(oldest);
    }
  }

  #expire(): void {
    const cutoff = this.#clock() - SEEN_DELIVERY_TTL_MS;
    for (const [key, at] of this.#seen) {
      if (at > cutoff) break; // insertion order is time order
      this.#seen.delete(key);
    }
  }
}
