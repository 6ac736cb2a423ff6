/** How an adapter's link to its platform is doing, for `/health`. */
import { z } from 'zod';

/**
 * What an adapter reports about its live link (a long poll, a websocket). It comes from adapter
 * code that may be a third-party plugin, so the gateway validates it before showing it.
 */
export const ConnectionStateSchema = z.object({
  /** The link is up right now; `false` while the adapter is reconnecting. */
  up: z.boolean(),
  /**
   * How many times the adapter has re-established its link since `connect`: a poller restarted by
   * its watchdog, a websocket reopened or resumed after a drop.
   */
  reconnects: z.number().int().nonnegative(),
  /** When the last reconnect began (ISO 8601). */
  lastReconnectAt: z.string().optional(),
  /** Why the last reconnect happened, secret-free ("no getUpdates answer in 40 s"). */
  lastReconnectReason: z.string().max(500).optional(),
});
export type ConnectionState = z.infer<typeof ConnectionStateSchema>;

/**
 * Counts an adapter's reconnects, for adapters to keep one and return it from
 * `PlatformAdapter.connectionState()`.
 */
export class ConnectionTracker {
  #up = false;
  #reconnects = 0;
  #lastAt: string | undefined;
  #lastReason: string | undefined;

  constructor(private readonly clock: () => number = Date.now) {}

  /** The link is (again) up. */
  markUp(): void {
    this.#up = true;
  }

  /** The link dropped or stalled and the adapter is re-establishing it. */
  markReconnecting(reason: string): void {
    this.#up = false;
    this.#reconnects += 1;
    this.#lastAt = new Date(this.clock()).toISOString();
    this.#lastReason = reason;
  }

  /** The link is down and not coming back by itself (disconnected, or gave up). */
  markDown(): void {
    this.#up = false;
  }

  /** The state, as `connectionState()` returns it. */
  state(): ConnectionState {
    return {
      up: this.#up,
      reconnects: this.#reconnects,
      ...(this.#lastAt ? { lastReconnectAt: this.#lastAt } : {}),
      ...(this.#lastReason ? { lastReconnectReason: this.#lastReason } : {}),
    };
  }
}
