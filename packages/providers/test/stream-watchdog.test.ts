/** The stale-stream watchdog on fake and hand-driven time. */
import { getEventListeners } from 'node:events';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_STALE_STREAM_TIMEOUT_MS,
  StaleStreamError,
  StaleStreamWatchdog,
  type WatchdogClock,
} from '../src/stream/index.js';

describe('StaleStreamWatchdog with fake timers', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('fires after exactly timeoutMs of silence with a provider.stale_stream reason', () => {
    const watchdog = new StaleStreamWatchdog({ timeoutMs: 1_000 });
    vi.advanceTimersByTime(999);
    expect(watchdog.stale).toBe(false);
    expect(watchdog.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(watchdog.stale).toBe(true);
    const reason: unknown = watchdog.signal.reason;
    expect(reason).toBeInstanceOf(StaleStreamError);
    expect(reason).toMatchObject({
      code: 'provider.stale_stream',
      retryable: true,
      timeoutMs: 1_000,
    });
    expect((reason as StaleStreamError).idleMs).toBeGreaterThanOrEqual(1_000);
  });

  it('is reset by touch: it fires timeoutMs after the last chunk', () => {
    const watchdog = new StaleStreamWatchdog({ timeoutMs: 1_000 });
    for (let i = 0; i < 10; i++) {
      vi.advanceTimersByTime(600);
      watchdog.touch();
    }
    expect(watchdog.stale).toBe(false);
    vi.advanceTimersByTime(999);
    expect(watchdog.stale).toBe(false);
    vi.advanceTimersByTime(1);
    expect(watchdog.stale).toBe(true);
  });

  it('never fires after stop, and leaves no timer behind', () => {
    const watchdog = new StaleStreamWatchdog({ timeoutMs: 50 });
    vi.advanceTimersByTime(20);
    watchdog.stop();
    watchdog.stop();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(1_000);
    expect(watchdog.stale).toBe(false);
  });

  it('defaults to 180 s', () => {
    const watchdog = new StaleStreamWatchdog();
    expect(watchdog.timeoutMs).toBe(DEFAULT_STALE_STREAM_TIMEOUT_MS);
    expect(DEFAULT_STALE_STREAM_TIMEOUT_MS).toBe(180_000);
    vi.advanceTimersByTime(179_999);
    expect(watchdog.stale).toBe(false);
    vi.advanceTimersByTime(1);
    expect(watchdog.stale).toBe(true);
  });
});

describe('StaleStreamWatchdog signals', () => {
  it('combines with the caller signal: a caller abort aborts the combined signal only', () => {
    const caller = new AbortController();
    const watchdog = new StaleStreamWatchdog({ timeoutMs: 60_000, signal: caller.signal });
    const reason = new Error('user pressed Ctrl-C');
    caller.abort(reason);
    expect(watchdog.signal.aborted).toBe(true);
    expect(watchdog.signal.reason).toBe(reason);
    expect(watchdog.stale).toBe(false);
    expect(watchdog.staleSignal.aborted).toBe(false);
    watchdog.stop();
  });

  it('takes an already aborted caller signal as aborted', () => {
    const caller = new AbortController();
    caller.abort(new Error('gone before the call'));
    const watchdog = new StaleStreamWatchdog({ timeoutMs: 60_000, signal: caller.signal });
    expect(watchdog.signal.aborted).toBe(true);
    expect((watchdog.signal.reason as Error).message).toBe('gone before the call');
    watchdog.stop();
  });

  it('leaves nothing on a long-lived caller signal after stop: a finished call is collectable', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const turn = new AbortController(); // lives as long as the agent's turn, or longer
    // A function of its own, so no local of the suspended test function holds the last one.
    const finishedCalls = (count: number) =>
      Array.from({ length: count }, () => {
        const watchdog = new StaleStreamWatchdog({ timeoutMs: 60_000, signal: turn.signal });
        // As the SDKs do: a listener on the signal they were given, never removed.
        watchdog.signal.addEventListener('abort', () => {});
        watchdog.stop();
        return new WeakRef(watchdog.signal);
      });
    const refs = finishedCalls(20);
    expect(getEventListeners(turn.signal, 'abort')).toHaveLength(0);
    let alive = refs.length;
    for (let round = 0; round < 10 && alive > 0; round += 1) {
      await new Promise((resolve) => setImmediate(resolve));
      gc();
      alive = refs.filter((ref) => ref.deref() !== undefined).length;
    }
    expect(alive).toBe(0);
    // The caller's abort still reaches a call in flight.
    const running = new StaleStreamWatchdog({ timeoutMs: 60_000, signal: turn.signal });
    turn.abort(new Error('stop'));
    expect(running.signal.aborted).toBe(true);
    running.stop();
  });

  it('linkedSignal joins any other signal with the stale signal', () => {
    const clock = manualClock();
    const watchdog = new StaleStreamWatchdog({ timeoutMs: 10, clock });
    const other = new AbortController();
    const linked = watchdog.linkedSignal(other.signal);
    expect(watchdog.linkedSignal(undefined)).toBe(watchdog.staleSignal);
    clock.advance(10);
    expect(linked.aborted).toBe(true);
    expect(linked.reason).toBeInstanceOf(StaleStreamError);
    expect(other.signal.aborted).toBe(false);
  });

  it('re-arms for the rest of the window when touched, on an injected clock', () => {
    const clock = manualClock();
    const watchdog = new StaleStreamWatchdog({ timeoutMs: 100, clock });
    clock.advance(70);
    watchdog.touch();
    clock.advance(30); // the first timer fires here and re-arms for 70 ms
    expect(watchdog.stale).toBe(false);
    expect(clock.pending()).toEqual([170]);
    clock.advance(69);
    expect(watchdog.stale).toBe(false);
    clock.advance(1);
    expect(watchdog.stale).toBe(true);
    expect(watchdog.staleSignal.reason).toMatchObject({ idleMs: 100, timeoutMs: 100 });
  });

  it('rejects a timeout that is not a positive number', () => {
    expect(() => new StaleStreamWatchdog({ timeoutMs: 0 })).toThrow(/timeoutMs must be positive/);
    expect(() => new StaleStreamWatchdog({ timeoutMs: -5 })).toThrow(/positive/);
  });
});

/** A clock driven by hand: `advance` runs due timers in order. */
function manualClock(): WatchdogClock & { advance(ms: number): void; pending(): number[] } {
  let now = 0;
  let timers: { at: number; callback: () => void; id: number }[] = [];
  let nextId = 0;
  return {
    now: () => now,
    setTimeout: (callback, ms) => {
      const id = nextId++;
      timers.push({ at: now + ms, callback, id });
      return id;
    },
    clearTimeout: (handle) => {
      timers = timers.filter((t) => t.id !== handle);
    },
    pending: () => timers.map((t) => t.at),
    advance(ms) {
      const target = now + ms;
      for (;;) {
        const due = timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at)[0];
        if (due === undefined) break;
        timers = timers.filter((t) => t !== due);
        now = due.at;
        due.callback();
      }
      now = target;
    },
  };
}
