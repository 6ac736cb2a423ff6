/**
 * The {@link GatewayStore} on PostgreSQL, for several gateway processes sharing one database.
 * Same semantics as the SQLite store, plus ownership: every process opens the store under a
 * unique `owner` name and holds a session-level advisory lock for it on a connection of its own
 * until `close()`. The server drops that lock when the process dies, so "the owner's lock can be
 * taken" means "the owner is gone": only then are its running turns reported as cut off and its
 * unsent replies taken over by a survivor.
 */
import { randomUUID } from 'node:crypto';
import { HermesError, isHermesError } from '@hermes/protocol';
import type { PostgresDatabase } from '@hermes/state/postgres';
import type pg from 'pg';
import {
  GatewayStore,
  type HygieneState,
  type InFlightTurn,
  type PendingDelivery,
  type SessionRoute,
} from './gateway-store.js';
import {
  GATEWAY_STORE_COMPONENT,
  GATEWAY_STORE_MIGRATIONS,
  ownerLockNamespace,
} from './postgres-gateway-migrations.js';
import {
  DELIVERY_COLUMNS,
  type DeliveryRow,
  defined,
  type RouteRow,
  TURN_COLUMNS,
  type TurnRow,
  toDelivery,
  toRoute,
  toTurn,
} from './postgres-gateway-rows.js';

export { GATEWAY_STORE_COMPONENT, GATEWAY_STORE_MIGRATIONS };

/** Options of {@link PostgresGatewayStore.open}. */
export interface PostgresGatewayStoreOptions {
  /** This process's name among the gateways sharing the database (unique per process). */
  readonly owner: string;
}

/**
 * True for rows whose owner (a column named `owner`) is another process that is gone: its
 * liveness lock can be taken. A transaction-level try-lock, so nothing is left to unlock, and a
 * second survivor checking at the same moment sees the owner as alive and leaves the rows to us.
 * `$1` is this process's owner name, `$2` the lock namespace.
 */
const OWNER_IS_DEAD =
  'owner <> $1 AND pg_try_advisory_xact_lock(hashtext($2::text), hashtext(owner))';

/** Routes, hygiene, the delivery ledger and in-flight turns in PostgreSQL. */
export class PostgresGatewayStore extends GatewayStore {
  readonly #database: PostgresDatabase;
  /** This process's name; its rows are never taken over while it lives. */
  readonly owner: string;
  readonly #namespace: string;
  #lock: pg.Client | undefined;

  private constructor(database: PostgresDatabase, owner: string, lock: pg.Client) {
    super();
    this.#database = database;
    this.owner = owner;
    this.#namespace = ownerLockNamespace(database.schema);
    this.#lock = lock;
  }

  /**
   * Migrates the gateway tables and opens; holds a liveness lock for `owner` until `close()`.
   * The database stays the caller's: closing the store never closes it.
   *
   * @throws HermesError `gateway.store_owner_taken` when a live process already uses `owner`,
   *   `gateway.store_open_failed` when the tables or the lock connection cannot be set up.
   */
  static async open(
    database: PostgresDatabase,
    options: PostgresGatewayStoreOptions,
  ): Promise<PostgresGatewayStore> {
    if (options.owner.trim() === '') {
      throw new HermesError('gateway.store_owner', 'The gateway store needs a non-empty owner.');
    }
    let lock: pg.Client | undefined;
    try {
      await database.migrate(GATEWAY_STORE_COMPONENT, GATEWAY_STORE_MIGRATIONS);
      lock = await database.dedicatedClient();
      const result = await lock.query<{ locked: boolean }>(
        'SELECT pg_try_advisory_lock(hashtext($1::text), hashtext($2::text)) AS locked',
        [ownerLockNamespace(database.schema), options.owner],
      );
      if (result.rows[0]?.locked !== true) {
        throw new HermesError(
          'gateway.store_owner_taken',
          `Another live gateway process uses the owner name "${options.owner}" on ${database.label}; give each process a unique owner (the default adds the host and process id).`,
          { details: { owner: options.owner } },
        );
      }
      return new PostgresGatewayStore(database, options.owner, lock);
    } catch (error) {
      await lock?.end().catch(() => {});
      if (isHermesError(error)) throw error;
      throw new HermesError(
        'gateway.store_open_failed',
        `Could not open the gateway store in PostgreSQL at ${database.label}: ${reason(error)}. Check the server and storage.url, or run \`hermes doctor\`.`,
        { cause: error },
      );
    }
  }

  /** Runs one statement; failures become `gateway.store_failed`. */
  async #query<R extends pg.QueryResultRow>(
    what: string,
    sql: string,
    params: readonly unknown[],
  ): Promise<R[]> {
    this.#open();
    try {
      return await this.#database.query<R>(sql, params);
    } catch (error) {
      throw this.#failed(what, error);
    }
  }

  /** Runs `work` in one transaction; failures become `gateway.store_failed` (nothing kept). */
  async #transaction<T>(what: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    this.#open();
    try {
      return await this.#database.transaction(work);
    } catch (error) {
      throw this.#failed(what, error);
    }
  }

  #open(): void {
    if (this.#lock === undefined) {
      throw new HermesError(
        'gateway.store_closed',
        `The gateway store of ${this.owner} in PostgreSQL at ${this.#database.label} is closed.`,
      );
    }
  }

  #failed(what: string, error: unknown): HermesError {
    return new HermesError(
      'gateway.store_failed',
      `Could not ${what} in PostgreSQL at ${this.#database.label}: ${reason(error)}. Nothing of this write was saved; check the server.`,
      { details: { what }, cause: error, retryable: true },
    );
  }

  async getRoute(key: string): Promise<SessionRoute | undefined> {
    const rows = await this.#query<RouteRow>(
      'read a session route',
      'SELECT key, session_id, platform, created_at, last_active_at FROM gateway_routes WHERE key = $1',
      [key],
    );
    return rows[0] && toRoute(rows[0]);
  }

  async setRoute(route: SessionRoute): Promise<void> {
    await this.#query(
      'save a session route',
      `INSERT INTO gateway_routes (key, session_id, platform, created_at, last_active_at)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (key) DO UPDATE SET session_id = excluded.session_id,
         platform = excluded.platform, created_at = excluded.created_at,
         last_active_at = excluded.last_active_at`,
      [route.key, route.sessionId, route.platform, route.createdAt, route.lastActiveAt],
    );
  }

  async touchRoute(key: string, at: number): Promise<void> {
    await this.#query(
      'touch a session route',
      'UPDATE gateway_routes SET last_active_at = $2 WHERE key = $1',
      [key, at],
    );
  }

  async deleteRoute(key: string): Promise<void> {
    await this.#query('delete a session route', 'DELETE FROM gateway_routes WHERE key = $1', [key]);
  }

  async getHygiene(key: string): Promise<HygieneState | undefined> {
    const rows = await this.#query<{ failures: number; cooldown_until: number }>(
      'read the hygiene state',
      'SELECT failures, cooldown_until FROM gateway_hygiene WHERE key = $1',
      [key],
    );
    const row = rows[0];
    return row && { failures: row.failures, cooldownUntil: row.cooldown_until };
  }

  async setHygiene(key: string, state: HygieneState | undefined): Promise<void> {
    if (state === undefined) {
      await this.#query('clear the hygiene state', 'DELETE FROM gateway_hygiene WHERE key = $1', [
        key,
      ]);
      return;
    }
    await this.#query(
      'save the hygiene state',
      `INSERT INTO gateway_hygiene (key, failures, cooldown_until) VALUES ($1, $2, $3)
       ON CONFLICT (key) DO UPDATE SET failures = excluded.failures,
         cooldown_until = excluded.cooldown_until`,
      [key, state.failures, state.cooldownUntil],
    );
  }

  async addDelivery(
    delivery: Omit<PendingDelivery, 'id' | 'sentParts' | 'attempts'>,
  ): Promise<string> {
    const id = randomUUID();
    await this.#query(
      'record a reply in the delivery ledger',
      `INSERT INTO gateway_deliveries (id, owner, session_key, platform, target, text, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        id,
        this.owner,
        delivery.sessionKey,
        delivery.platform,
        JSON.stringify(delivery.target),
        delivery.text,
        delivery.createdAt,
      ],
    );
    return id;
  }

  async markDeliveryProgress(id: string, sentParts: number): Promise<void> {
    await this.#query(
      'record delivery progress',
      'UPDATE gateway_deliveries SET sent_parts = $2 WHERE id = $1',
      [id, sentParts],
    );
  }

  async completeDelivery(id: string): Promise<void> {
    await this.#query('complete a delivery', 'DELETE FROM gateway_deliveries WHERE id = $1', [id]);
  }

  async failDelivery(id: string, error: string, dead: boolean): Promise<void> {
    if (dead) {
      await this.completeDelivery(id);
      return;
    }
    await this.#query(
      'record a failed delivery',
      'UPDATE gateway_deliveries SET attempts = attempts + 1, last_error = $2 WHERE id = $1',
      [id, error],
    );
  }

  /**
   * This owner's unsent replies plus those of owners that are gone, which become this owner's in
   * the same transaction (so two survivors never both resend one reply). Oldest first.
   */
  async pendingDeliveries(platform?: string): Promise<PendingDelivery[]> {
    const rows = await this.#transaction('read the delivery ledger', async (client) => {
      await client.query(
        `UPDATE gateway_deliveries SET owner = $1
         WHERE ${OWNER_IS_DEAD} AND ($3::text IS NULL OR platform = $3)`,
        [this.owner, this.#namespace, platform ?? null],
      );
      const mine = await client.query<DeliveryRow>(
        `SELECT ${DELIVERY_COLUMNS} FROM gateway_deliveries
         WHERE owner = $1 AND ($2::text IS NULL OR platform = $2)
         ORDER BY created_at, seq`,
        [this.owner, platform ?? null],
      );
      return mine.rows;
    });
    return defined(rows.map(toDelivery));
  }

  async beginTurn(turn: InFlightTurn): Promise<void> {
    await this.#query(
      'record a running turn',
      `INSERT INTO gateway_turns (session_key, owner, session_id, platform, target, started_at)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (session_key) DO UPDATE SET owner = excluded.owner,
         session_id = excluded.session_id, platform = excluded.platform,
         target = excluded.target, started_at = excluded.started_at`,
      [
        turn.sessionKey,
        this.owner,
        turn.sessionId,
        turn.platform,
        JSON.stringify(turn.target),
        turn.startedAt,
      ],
    );
  }

  async endTurn(sessionKey: string): Promise<void> {
    await this.#query(
      'record a finished turn',
      'DELETE FROM gateway_turns WHERE session_key = $1',
      [sessionKey],
    );
  }

  /**
   * Turns begun by owners that are gone (never a live peer's, never this owner's own), oldest
   * first; they leave the table in the same statement, so each is reported once.
   */
  async takeCutOffTurns(): Promise<InFlightTurn[]> {
    const rows = await this.#transaction('take the cut-off turns', async (client) => {
      const taken = await client.query<TurnRow>(
        `WITH taken AS (DELETE FROM gateway_turns WHERE ${OWNER_IS_DEAD} RETURNING ${TURN_COLUMNS})
         SELECT ${TURN_COLUMNS} FROM taken ORDER BY started_at, session_key`,
        [this.owner, this.#namespace],
      );
      return taken.rows;
    });
    return defined(rows.map(toTurn));
  }

  /**
   * Drops the liveness lock (peers may now take this owner's turns and replies) and ends its
   * connection; idempotent. The database stays open. Later calls fail with `gateway.store_closed`.
   */
  async close(): Promise<void> {
    const lock = this.#lock;
    this.#lock = undefined;
    await lock?.end().catch(() => {});
  }
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
