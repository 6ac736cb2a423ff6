/**
 * Stale-stream detection. Some services keep a connection open and send nothing (a stuck
 * upstream, a proxy that swallowed the end); without a watchdog such a call hangs forever. The
 * watchdog aborts the call when no chunk arrived for `timeoutMs`; the adapter then rejects with a
 * `timeout` classification (see `interruptionError`), which the retry layer retries.
 */
import { HermesError, parseOrThrow } from '@hermes/protocol';
import { z } from 'zod';

/** The default silence, in ms, after which a stream counts as stale (Hermes' 180 s). */
export const DEFAULT_STALE_STREAM_TIMEOUT_MS = 180_000;

/** The code of {@link StaleStreamError}. */
export const STALE_STREAM_CODE = 'provider.stale_stream';

/** Time and timers, injectable so tests can run the watchdog on fake or hand-driven time. */
export interface WatchdogClock {
  /** A monotonic time in ms. */
  now(): number;
  /** Schedules `callback` after `ms`; returns a handle for {@link clearTimeout}. */
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/**
 * The process clock: `performance.now` and the global timers, looked up on every call (so
 * `vi.useFakeTimers` takes effect). Timers are unref'd: a watchdog never keeps a process alive.
 */
export const systemWatchdogClock: WatchdogClock = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => {
    const handle = setTimeout(callback, ms);
    handle.unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

function formatMs(ms: number): string {
  return ms < 10_000 ? `${Math.round(ms)} ms` : `${Math.round(ms / 1000)} s`;
}

/** The abort reason of a stale stream: no chunk arrived for {@link timeoutMs}. Retryable. */
export class StaleStreamError extends HermesError {
  /** The configured limit. */
  readonly timeoutMs: number;
  /** How long the stream had been silent when the watchdog fired. */
  readonly idleMs: number;

  constructor(timeoutMs: number, idleMs: number) {
    super(
      STALE_STREAM_CODE,
      `The model stream went silent for ${formatMs(idleMs)} (limit ${formatMs(timeoutMs)}); ` +
        'the call was stopped and may be retried.',
      { retryable: true, details: { timeoutMs, idleMs } },
    );
    this.timeoutMs = timeoutMs;
    this.idleMs = idleMs;
  }
}

/** Options of a {@link StaleStreamWatchdog}. */
export interface StaleStreamWatchdogOptions {
  /** Silence that makes the stream stale, in ms. Default {@link DEFAULT_STALE_STREAM_TIMEOUT_MS}. */
  readonly timeoutMs?: number | undefined;
  /** The caller's signal, combined into {@link StaleStreamWatchdog.signal}. */
  readonly signal?: AbortSignal | undefined;
  /** Default {@link systemWatchdogClock}. */
  readonly clock?: WatchdogClock | undefined;
}

/** The longest delay a Node timer accepts. */
const MAX_TIMER_MS = 2_147_483_647;

const TimeoutSchema = z
  .number()
  .positive('timeoutMs must be positive')
  .max(MAX_TIMER_MS, 'timeoutMs must fit a timer');

/**
 * Aborts its own `AbortController` with a {@link StaleStreamError} when {@link touch} was not
 * called for `timeoutMs`. It is armed on construction (so a server that sends headers and then
 * nothing is caught too) and disarmed by {@link stop}, which the adapter calls in `finally`.
 *
 * `touch` only records the time: the single timer, when it fires early, re-arms itself for the
 * rest of the window, so a chunk costs no timer work.
 */
export class StaleStreamWatchdog {
  /** The silence limit in ms. */
  readonly timeoutMs: number;
  /** Aborts only when the stream goes stale. */
  readonly staleSignal: AbortSignal;
  /** The caller's signal (if given) combined with {@link staleSignal}: pass it to the SDK. */
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private readonly clock: WatchdogClock;
  private lastActivity: number;
  private handle: unknown;
  private stopped = false;
  /** Removes the listeners {@link linkedSignal} put on signals that outlive this call. */
  private readonly unlinks: (() => void)[] = [];

  constructor(options: StaleStreamWatchdogOptions = {}) {
    const timeoutMs = options.timeoutMs ?? DEFAULT_STALE_STREAM_TIMEOUT_MS;
    // One watchdog per model call: a valid number skips the schema (whose error it would be).
    this.timeoutMs =
      typeof timeoutMs === 'number' && timeoutMs > 0 && timeoutMs <= MAX_TIMER_MS
        ? timeoutMs
        : parseOrThrow(TimeoutSchema, timeoutMs, 'stale-stream timeout');
    this.clock = options.clock ?? systemWatchdogClock;
    this.staleSignal = this.controller.signal;
    this.signal = this.linkedSignal(options.signal);
    this.lastActivity = this.clock.now();
    this.arm(this.timeoutMs);
  }

  /** True once the watchdog fired. */
  get stale(): boolean {
    return this.staleSignal.aborted;
  }

  /** Records activity: call it for every chunk received. */
  touch(): void {
    if (!this.stopped) this.lastActivity = this.clock.now();
  }

  /** Disarms the watchdog for good. Idempotent. */
  stop(): void {
    this.stopped = true;
    if (this.handle !== undefined) this.clock.clearTimeout(this.handle);
    this.handle = undefined;
    for (const unlink of this.unlinks.splice(0)) unlink();
  }

  /**
   * `callerSignal` combined with {@link staleSignal}; the latter alone if none. Not
   * `AbortSignal.any`: Node 20 keeps such a combined signal alive for as long as it has a
   * listener and has not aborted, and the SDKs add a listener they never remove, so every
   * finished call leaked its signals (~2 KB a call). The listener put on the caller's signal
   * here is removed by {@link stop}.
   */
  linkedSignal(callerSignal: AbortSignal | undefined): AbortSignal {
    if (callerSignal === undefined) return this.staleSignal;
    const linked = new AbortController();
    if (callerSignal.aborted) linked.abort(callerSignal.reason);
    else if (this.staleSignal.aborted) linked.abort(this.staleSignal.reason);
    else {
      const fromCaller = () => linked.abort(callerSignal.reason);
      const fromStale = () => linked.abort(this.staleSignal.reason);
      callerSignal.addEventListener('abort', fromCaller, { once: true });
      this.staleSignal.addEventListener('abort', fromStale, { once: true });
      this.unlinks.push(() => {
        callerSignal.removeEventListener('abort', fromCaller);
        this.staleSignal.removeEventListener('abort', fromStale);
      });
    }
    return linked.signal;
  }

  private arm(ms: number): void {
    this.handle = this.clock.setTimeout(() => this.check(), ms);
  }

  private check(): void {
    this.handle = undefined;
    if (this.stopped) return;
    const idle = this.clock.now() - this.lastActivity;
    if (idle < this.timeoutMs) {
      this.arm(this.timeoutMs - idle);
      return;
    }
    this.stopped = true;
    this.controller.abort(new StaleStreamError(this.timeoutMs, idle));
  }
}
