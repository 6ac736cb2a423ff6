/**
 * Long polling with a liveness watchdog. Telegram's most reported failure is a poller that
 * silently stops (a half-open socket: the request never answers, nothing throws). Each
 * `getUpdates` is given `timeout + margin` to answer; past that it is aborted and the poller
 * starts over, counted in `restarts`. The first call after a stall or a failure asks with
 * `timeout: 0`, so it answers at once and the owner learns within a round trip that the link is
 * back (a long poll would only answer after its full timeout when no update is waiting).
 */
import type { Api } from 'grammy';
import type { Update } from 'grammy/types';

/** What the poller reports to its owner. */
export interface PollerEvents {
  /** Handles one batch of updates, in order; the poller awaits it before the next call. */
  readonly onUpdates: (updates: readonly Update[]) => Promise<void>;
  /** The watchdog fired: no answer within the deadline. */
  readonly onStall: (restarts: number, waitedMs: number) => void;
  /** A call failed (connection dropped, 5xx, …); the poller waits `retryInMs` and tries again. */
  readonly onError: (error: unknown, retryInMs: number) => void;
  /** A `getUpdates` call answered (the link works); called before its updates are handled. */
  readonly onAnswer?: () => void;
}

/** Timing of the loop. */
export interface PollerTiming {
  readonly timeoutSeconds: number;
  readonly marginMs: number;
  readonly retryBaseMs: number;
  readonly retryMaxMs: number;
}

class Stalled extends Error {}

/** One long-polling loop; `start` once, `stop` any number of times. */
export class Poller {
  #offset = 0;
  #running = false;
  #abort: AbortController | undefined;
  #loop: Promise<void> | undefined;
  #wake: (() => void) | undefined;
  /** The next call is a probe (`timeout: 0`): the previous one stalled or failed. */
  #probe = false;
  /** How many times the watchdog restarted the poller. */
  restarts = 0;

  constructor(
    private readonly api: Api,
    private readonly timing: PollerTiming,
    private readonly events: PollerEvents,
  ) {}

  /** Starts the loop in the background. */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#loop = this.#run();
  }

  /** Stops polling and waits for the loop (and the batch it was handling) to end. */
  async stop(): Promise<void> {
    this.#running = false;
    this.#abort?.abort();
    this.#wake?.();
    await this.#loop;
  }

  async #run(): Promise<void> {
    let failures = 0;
    while (this.#running) {
      try {
        const updates = await this.#poll();
        failures = 0;
        this.#probe = false;
        if (!this.#running) return;
        this.events.onAnswer?.();
        if (updates.length > 0) {
          this.#offset = (updates.at(-1)?.update_id ?? 0) + 1;
          await this.events.onUpdates(updates);
        }
      } catch (error) {
        if (!this.#running) return;
        this.#probe = true;
        if (error instanceof Stalled) continue;
        const wait = Math.min(this.timing.retryMaxMs, this.timing.retryBaseMs * 2 ** failures);
        failures += 1;
        this.events.onError(error, wait);
        await this.#sleep(wait);
      }
    }
  }

  /** One `getUpdates`, raced against the watchdog. */
  #poll(): Promise<Update[]> {
    const abort = new AbortController();
    this.#abort = abort;
    const timeout = this.#probe ? 0 : this.timing.timeoutSeconds;
    const deadline = timeout * 1000 + this.timing.marginMs;
    return new Promise<Update[]>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.restarts += 1;
        this.events.onStall(this.restarts, deadline);
        abort.abort();
        reject(new Stalled());
      }, deadline);
      this.api
        .getUpdates(
          { offset: this.#offset, timeout },
          abort.signal as Parameters<Api['getUpdates']>[1],
        )
        .then(resolve, reject)
        .finally(() => clearTimeout(timer));
    });
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.#wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
