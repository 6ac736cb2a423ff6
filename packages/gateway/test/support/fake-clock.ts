/** A clock and timers that move only when a test says so, so throttles and timeouts need no sleeps. */
import type { Timers } from '../../src/delivery/timers.js';

interface Scheduled {
  readonly id: number;
  readonly at: number;
  readonly callback: () => void;
}

/** `now` plus `setTimeout`/`clearTimeout` driven by {@link FakeClock.advance}. */
export class FakeClock {
  #now: number;
  #nextId = 1;
  #scheduled: Scheduled[] = [];

  constructor(start = 1_000_000) {
    this.#now = start;
  }

  /** The current fake time (ms); pass as `clock`. */
  readonly now = (): number => this.#now;

  /** Pass as `timers`. */
  readonly timers: Timers = {
    setTimeout: (callback, ms) => {
      const id = this.#nextId++;
      this.#scheduled.push({ id, at: this.#now + Math.max(0, ms), callback });
      return id;
    },
    clearTimeout: (handle) => {
      this.#scheduled = this.#scheduled.filter((s) => s.id !== handle);
    },
  };

  /** Timers waiting to fire. */
  get pending(): number {
    return this.#scheduled.length;
  }

  /** Moves time forward by `ms`, running every timer that falls due, in order. */
  advance(ms: number): void {
    const end = this.#now + ms;
    for (;;) {
      const due = this.#scheduled
        .filter((s) => s.at <= end)
        .sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.#scheduled = this.#scheduled.filter((s) => s !== due);
      this.#now = Math.max(this.#now, due.at);
      due.callback();
    }
    this.#now = end;
  }
}
