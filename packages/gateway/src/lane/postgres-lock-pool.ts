/**
 * The connections a {@link PostgresSessionLane} takes advisory locks on. A session-level lock
 * lives as long as its connection, so a held key pins one connection; a free connection holds
 * no lock and is reused by the next key, and at most a few free ones are kept open.
 */
import type { PostgresDatabase } from '@hermes/state/postgres';
import type pg from 'pg';

/** Lock connections of one lane. */
export class LockConnections {
  readonly #database: PostgresDatabase;
  readonly #maxIdle: number;
  #idle: pg.Client[] = [];
  readonly #open = new Set<pg.Client>();
  readonly #broken = new WeakSet<pg.Client>();
  #closed = false;

  constructor(database: PostgresDatabase, maxIdle: number) {
    this.#database = database;
    this.#maxIdle = maxIdle;
  }

  /** Connections open right now (held and free). */
  get size(): number {
    return this.#open.size;
  }

  /** A free connection, reused or new. */
  async take(): Promise<pg.Client> {
    const reused = this.#idle.pop();
    if (reused) return reused;
    const client = await this.#database.dedicatedClient();
    if (this.#closed) {
      await client.end().catch(() => {});
      throw new Error('the lane is closed');
    }
    // A connection the server dropped (a restart, pg_terminate_backend) is never reused.
    const broken = () => {
      this.#broken.add(client);
      this.#idle = this.#idle.filter((other) => other !== client);
    };
    client.on('error', broken);
    client.on('end', broken);
    this.#open.add(client);
    return client;
  }

  /** Returns a connection that holds no lock; ends it when enough are free or it broke. */
  giveBack(client: pg.Client): void {
    if (this.#closed || this.#broken.has(client) || this.#idle.length >= this.#maxIdle) {
      this.discard(client);
      return;
    }
    this.#idle.push(client);
  }

  /** Ends a connection; the server frees whatever locks it still held. */
  discard(client: pg.Client): void {
    this.#open.delete(client);
    this.#idle = this.#idle.filter((other) => other !== client);
    client.end().catch(() => {});
  }

  /** Ends every connection, held ones included (their locks go with them). Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    const all = [...this.#open];
    this.#open.clear();
    this.#idle = [];
    await Promise.all(all.map((client) => client.end().catch(() => {})));
  }
}
