/**
 * The {@link SessionLane} across processes: the in-process lane (FIFO per key, the slot bound)
 * composed with a PostgreSQL session-level advisory lock per key, so one turn per session key
 * runs across every gateway process on the database. The lock is tried, not waited for, on a
 * connection of its own and retried every `pollMs` while another process holds it. A killed
 * process's connections die and the server frees their locks: its lanes expire with it.
 */
import { HermesError } from '@hermes/protocol';
import type { PostgresDatabase } from '@hermes/state/postgres';
import type pg from 'pg';
import { laneLockNamespace } from '../store/postgres-gateway-migrations.js';
import { InProcessLane } from './in-process-lane.js';
import { LockConnections } from './postgres-lock-pool.js';
import type { LaneLease } from './session-lane.js';
import { SessionLane } from './session-lane.js';

/** Options of {@link PostgresSessionLane}. */
export interface PostgresSessionLaneOptions {
  /** Turns running at once in this process (`gateway.max_concurrent_turns`). */
  readonly maxConcurrent: number;
  /** How often a waiter retries a lock another process holds. Default 100 ms. */
  readonly pollMs?: number;
}

/** Free lock connections kept open for reuse, at most. */
const MAX_IDLE_CONNECTIONS = 4;

const TRY_LOCK = 'SELECT pg_try_advisory_lock(hashtext($1::text), hashtext($2::text)) AS ok';
const UNLOCK = 'SELECT pg_advisory_unlock(hashtext($1::text), hashtext($2::text)) AS ok';

function abortError(key: string): Error {
  return new DOMException(`Waiting for the session lane of ${key} was aborted.`, 'AbortError');
}

/**
 * One running turn per session key across every process on the database (advisory locks keyed
 * by the schema and `hashtext(key)`), at most `maxConcurrent` in this process.
 */
export class PostgresSessionLane extends SessionLane {
  readonly #local: InProcessLane;
  readonly #connections: LockConnections;
  readonly #namespace: string;
  readonly #pollMs: number;
  readonly #label: string;
  /** Keys whose lease is not released; a released key's unlock may still be on its way. */
  readonly #held = new Set<string>();
  /** Aborted by `close()`: every wait stops. */
  readonly #closing = new AbortController();

  constructor(database: PostgresDatabase, options: PostgresSessionLaneOptions) {
    super();
    this.#local = new InProcessLane({ maxConcurrent: options.maxConcurrent });
    const pollMs = options.pollMs ?? 100;
    if (!Number.isFinite(pollMs) || pollMs <= 0) {
      throw new RangeError(`pollMs must be a positive number, not ${pollMs}`);
    }
    this.#pollMs = pollMs;
    this.#namespace = laneLockNamespace(database.schema);
    this.#label = database.label;
    this.#connections = new LockConnections(
      database,
      Math.min(options.maxConcurrent, MAX_IDLE_CONNECTIONS),
    );
  }

  /** Lock connections open now (held keys pin one each; a few free ones are kept). */
  get connections(): number {
    return this.#connections.size;
  }

  async acquire(key: string, signal?: AbortSignal): Promise<LaneLease> {
    this.#assertOpen();
    const stop = signal ? AbortSignal.any([signal, this.#closing.signal]) : this.#closing.signal;
    let local: LaneLease;
    try {
      local = await this.#local.acquire(key, stop);
    } catch (error) {
      this.#assertOpen();
      throw error;
    }
    let client: pg.Client;
    try {
      client = await this.#lock(key, stop);
    } catch (error) {
      local.release();
      this.#assertOpen();
      throw error;
    }
    this.#held.add(key);
    let released = false;
    return {
      key,
      release: () => {
        if (released) return;
        released = true;
        this.#held.delete(key);
        // The in-process place is freed once the server lock is, so the next local waiter for
        // this key does not find it still locked and wait a poll round for nothing.
        void this.#unlock(client, key).finally(() => local.release());
      },
    };
  }

  isHeld(key: string): boolean {
    return this.#held.has(key);
  }

  held(): readonly string[] {
    return [...this.#held];
  }

  /** Releases every lock and ends the lock connections; waiters reject. Idempotent. */
  async close(): Promise<void> {
    this.#closing.abort();
    this.#held.clear();
    await this.#connections.close();
  }

  #assertOpen(): void {
    if (this.#closing.signal.aborted) {
      throw new HermesError('gateway.lane_closed', 'The PostgreSQL session lane is closed.');
    }
  }

  /** Takes `key`'s server lock on a free connection, retrying while another process holds it. */
  async #lock(key: string, stop: AbortSignal): Promise<pg.Client> {
    let client: pg.Client;
    try {
      client = await this.#connections.take();
    } catch (error) {
      throw this.#failed(key, error);
    }
    for (;;) {
      let locked: boolean;
      try {
        const result = await client.query<{ ok: boolean }>(TRY_LOCK, [this.#namespace, key]);
        locked = result.rows[0]?.ok === true;
      } catch (error) {
        this.#connections.discard(client);
        throw this.#failed(key, error);
      }
      if (locked && !stop.aborted) return client;
      if (locked) await this.#unlockQuietly(client, key);
      if (stop.aborted) {
        this.#connections.giveBack(client);
        throw abortError(key);
      }
      await this.#pause(stop);
    }
  }

  /** Unlocks and returns the connection; a failed unlock ends it (the server frees the lock). */
  async #unlock(client: pg.Client, key: string): Promise<void> {
    if (await this.#unlockQuietly(client, key)) this.#connections.giveBack(client);
    else this.#connections.discard(client);
  }

  async #unlockQuietly(client: pg.Client, key: string): Promise<boolean> {
    try {
      const result = await client.query<{ ok: boolean }>(UNLOCK, [this.#namespace, key]);
      return result.rows[0]?.ok === true;
    } catch {
      return false;
    }
  }

  /** Waits `pollMs`, or less when `stop` aborts. */
  #pause(stop: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        stop.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, this.#pollMs);
      stop.addEventListener('abort', done, { once: true });
    });
  }

  #failed(key: string, error: unknown): HermesError {
    const reason = error instanceof Error ? error.message : String(error);
    return new HermesError(
      'gateway.lane_failed',
      `Could not take the session lane of ${key} in PostgreSQL at ${this.#label}: ${reason}. Check the server; the message can be sent again.`,
      { details: { key }, cause: error, retryable: true },
    );
  }
}
