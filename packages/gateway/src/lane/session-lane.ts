/**
 * One running turn per session key, and a bound on turns running at once. Behind an abstract
 * class so a database-backed lock (an advisory lock on a shared PostgreSQL) can replace the
 * in-process one when several gateway processes serve one store.
 */

/** A held lane; release it exactly once when the turn is over. */
export interface LaneLease {
  readonly key: string;
  release(): void;
}

/**
 * Serializes turns per session key and bounds them overall.
 *
 * Contract: at most one lease per key is held at a time; `acquire` waits (FIFO per key) for the
 * key and for a free slot; an aborted `signal` rejects a waiting `acquire` with an `AbortError`
 * and leaves the queue as if it had never asked; `release` is idempotent.
 */
export abstract class SessionLane {
  /** Waits for `key`'s lane and a free slot, then holds them. */
  abstract acquire(key: string, signal?: AbortSignal): Promise<LaneLease>;
  /** Whether a turn holds `key` right now. */
  abstract isHeld(key: string): boolean;
  /** Keys held right now (for `/health`). */
  abstract held(): readonly string[];
}
