/**
 * Hand-driven time for the stale-stream watchdog in tests over real HTTP.
 *
 * The watchdog measures silence with `performance.now()`, looked up on every check
 * (`systemWatchdogClock`). Faking only `performance` freezes that measure while real timers,
 * sockets and the testkit server keep running: the watchdog's real timer still fires and
 * re-checks, but it sees no silence until the test declares some with {@link WatchdogTime.elapse}.
 * So a stall times out because the test said the limit has passed, after it saw the text it
 * waits for, never because a loaded machine was slow to deliver the first frames.
 */
import { afterEach, vi } from 'vitest';

/** Controls the watchdog's time in one test file. */
export interface WatchdogTime {
  /** Freezes the watchdog's clock; real timers and I/O keep running. */
  freeze(): void;
  /** Lets `ms` of silence pass on the watchdog's clock; it notices on its next real check. */
  elapse(ms: number): void;
}

/** Call once at the top level of a test file; real time is restored after each test. */
export function useWatchdogTime(): WatchdogTime {
  afterEach(() => {
    vi.useRealTimers();
  });
  return {
    freeze: () => {
      vi.useFakeTimers({ toFake: ['performance'] });
    },
    elapse: (ms) => {
      vi.advanceTimersByTime(ms);
    },
  };
}
