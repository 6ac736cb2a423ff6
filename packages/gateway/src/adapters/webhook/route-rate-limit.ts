/** Per-route rate limits: at most N accepted deliveries in any rolling minute. */

const WINDOW_MS = 60_000;

/** Sliding-window counters, one per route. */
export class RouteRateLimit {
  readonly #accepted = new Map<string, number[]>();
  readonly #clock: () => number;

  constructor(clock: () => number = Date.now) {
    this.#clock = clock;
  }

  /**
   * Takes one delivery's place in `route`'s window.
   *
   * @returns 0 when taken, else the seconds until a place frees up (for `Retry-After`).
   */
  take(route: string, perMinute: number): number {
    const now = this.#clock();
    const times = (this.#accepted.get(route) ?? []).filter((at) => now - at < WINDOW_MS);
    if (times.length >= perMinute) {
      this.#accepted.set(route, times);
      const oldest = times[0] ?? now;
      return Math.max(1, Math.ceil((oldest + WINDOW_MS - now) / 1000));
    }
    times.push(now);
    this.#accepted.set(route, times);
    return 0;
  }
}
