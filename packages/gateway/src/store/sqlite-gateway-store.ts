/**
 * The default {@link GatewayStore}: tables in `HERMES_HOME/state.db` beside the session store's,
 * one small transaction per call, safe for several processes (WAL) and for a SIGKILL mid-write
 * (a transaction is all there or not at all).
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { HermesError } from '@hermes/protocol';
import type Database from 'better-sqlite3';
import type { SendTarget } from '../messages.js';
import {
  GatewayStore,
  type HygieneState,
  type InFlightTurn,
  type PendingDelivery,
  type SessionRoute,
} from './gateway-store.js';
import {
  openGatewayDatabase,
  type SqliteDatabase,
  withRetry,
} from './sqlite-gateway-connection.js';

/** Where {@link SqliteGatewayStore.open} puts its tables. */
export type SqliteGatewayStoreLocation =
  | { readonly hermesHome: string }
  | { readonly path: string };

interface RouteRow {
  key: string;
  session_id: string;
  platform: string;
  created_at: number;
  last_active_at: number;
}

interface DeliveryRow {
  id: string;
  session_key: string;
  platform: string;
  target: string;
  text: string;
  sent_parts: number;
  created_at: number;
  attempts: number;
}

interface TurnRow {
  session_key: string;
  session_id: string;
  platform: string;
  target: string;
  started_at: number;
}

const DELIVERY_COLUMNS =
  'id, session_key, platform, target, text, sent_parts, created_at, attempts FROM gateway_deliveries';

/** Every statement, prepared once per connection. */
function prepareAll(db: SqliteDatabase) {
  const p = (sql: string) => db.prepare(sql);
  return {
    getRoute: p('SELECT * FROM gateway_routes WHERE key = ?'),
    setRoute:
      p(`INSERT INTO gateway_routes VALUES (@key, @sessionId, @platform, @createdAt, @lastActiveAt)
      ON CONFLICT(key) DO UPDATE SET session_id = excluded.session_id,
        platform = excluded.platform, created_at = excluded.created_at,
        last_active_at = excluded.last_active_at`),
    touchRoute: p('UPDATE gateway_routes SET last_active_at = ? WHERE key = ?'),
    deleteRoute: p('DELETE FROM gateway_routes WHERE key = ?'),
    getHygiene: p('SELECT failures, cooldown_until FROM gateway_hygiene WHERE key = ?'),
    setHygiene: p('INSERT OR REPLACE INTO gateway_hygiene VALUES (?, ?, ?)'),
    clearHygiene: p('DELETE FROM gateway_hygiene WHERE key = ?'),
    addDelivery:
      p(`INSERT INTO gateway_deliveries (id, session_key, platform, target, text, created_at)
      VALUES (?, ?, ?, ?, ?, ?)`),
    progress: p('UPDATE gateway_deliveries SET sent_parts = ? WHERE id = ?'),
    complete: p('DELETE FROM gateway_deliveries WHERE id = ?'),
    fail: p('UPDATE gateway_deliveries SET attempts = attempts + 1, last_error = ? WHERE id = ?'),
    pendingAll: p(`SELECT ${DELIVERY_COLUMNS} ORDER BY created_at, seq`),
    pendingFor: p(`SELECT ${DELIVERY_COLUMNS} WHERE platform = ? ORDER BY created_at, seq`),
    beginTurn: p('INSERT OR REPLACE INTO gateway_turns VALUES (?, ?, ?, ?, ?)'),
    endTurn: p('DELETE FROM gateway_turns WHERE session_key = ?'),
    turns: p('SELECT * FROM gateway_turns ORDER BY started_at, session_key'),
    clearTurns: p('DELETE FROM gateway_turns'),
  };
}

type Statements = ReturnType<typeof prepareAll>;

function toRoute(row: RouteRow): SessionRoute {
  return {
    key: row.key,
    sessionId: row.session_id,
    platform: row.platform,
    createdAt: row.created_at,
    lastActiveAt: row.last_active_at,
  };
}

function toDelivery(row: DeliveryRow): PendingDelivery {
  return {
    id: row.id,
    sessionKey: row.session_key,
    platform: row.platform,
    target: JSON.parse(row.target) as SendTarget,
    text: row.text,
    sentParts: row.sent_parts,
    createdAt: row.created_at,
    attempts: row.attempts,
  };
}

function toTurn(row: TurnRow): InFlightTurn {
  return {
    sessionKey: row.session_key,
    sessionId: row.session_id,
    platform: row.platform,
    target: JSON.parse(row.target) as SendTarget,
    startedAt: row.started_at,
  };
}

/** The gateway's durable state in SQLite. Open with {@link SqliteGatewayStore.open}. */
export class SqliteGatewayStore extends GatewayStore {
  #db: SqliteDatabase | undefined;
  readonly #sql: Statements;
  readonly #write: Database.Transaction<(fn: () => unknown) => unknown>;
  /** The database file. */
  readonly path: string;

  private constructor(db: SqliteDatabase) {
    super();
    this.#db = db;
    this.path = db.name;
    this.#sql = prepareAll(db);
    this.#write = db.transaction((fn: () => unknown) => fn());
  }

  /**
   * Opens the store: `{ hermesHome }` puts the tables in `<hermesHome>/state.db`, `{ path }` in
   * that file. Creates the file and the tables when absent.
   *
   * @throws HermesError `gateway.store_open_failed` (not SQLite, no permission),
   *   `gateway.store_schema_too_new` (written by a newer build; left untouched).
   */
  static open(location: SqliteGatewayStoreLocation): SqliteGatewayStore {
    const path = 'path' in location ? location.path : join(location.hermesHome, 'state.db');
    return new SqliteGatewayStore(openGatewayDatabase(path));
  }

  #handle(): SqliteDatabase {
    if (this.#db === undefined) {
      throw new HermesError('gateway.store_closed', `The gateway store ${this.path} is closed.`);
    }
    return this.#db;
  }

  /** Runs a read, retrying while another process holds a lock. */
  async #read<T>(fn: () => T): Promise<T> {
    return withRetry(this.#handle(), 'read the gateway state', fn);
  }

  /** Runs `fn` in one IMMEDIATE transaction, retrying while another process holds the lock. */
  async #tx<T>(what: string, fn: () => T): Promise<T> {
    return withRetry(this.#handle(), what, () => this.#write.immediate(fn) as T);
  }

  async getRoute(key: string): Promise<SessionRoute | undefined> {
    const row = await this.#read(() => this.#sql.getRoute.get(key) as RouteRow | undefined);
    return row && toRoute(row);
  }

  async setRoute(route: SessionRoute): Promise<void> {
    await this.#tx('save a session route', () => this.#sql.setRoute.run({ ...route }));
  }

  async touchRoute(key: string, at: number): Promise<void> {
    await this.#tx('touch a session route', () => this.#sql.touchRoute.run(at, key));
  }

  async deleteRoute(key: string): Promise<void> {
    await this.#tx('delete a session route', () => this.#sql.deleteRoute.run(key));
  }

  async getHygiene(key: string): Promise<HygieneState | undefined> {
    const row = await this.#read(
      () =>
        this.#sql.getHygiene.get(key) as { failures: number; cooldown_until: number } | undefined,
    );
    return row && { failures: row.failures, cooldownUntil: row.cooldown_until };
  }

  async setHygiene(key: string, state: HygieneState | undefined): Promise<void> {
    await this.#tx('save the hygiene state', () =>
      state === undefined
        ? this.#sql.clearHygiene.run(key)
        : this.#sql.setHygiene.run(key, state.failures, state.cooldownUntil),
    );
  }

  async addDelivery(
    delivery: Omit<PendingDelivery, 'id' | 'sentParts' | 'attempts'>,
  ): Promise<string> {
    const id = randomUUID();
    const target = JSON.stringify(delivery.target);
    await this.#tx('record a reply in the delivery ledger', () =>
      this.#sql.addDelivery.run(
        id,
        delivery.sessionKey,
        delivery.platform,
        target,
        delivery.text,
        delivery.createdAt,
      ),
    );
    return id;
  }

  async markDeliveryProgress(id: string, sentParts: number): Promise<void> {
    await this.#tx('record delivery progress', () => this.#sql.progress.run(sentParts, id));
  }

  async completeDelivery(id: string): Promise<void> {
    await this.#tx('complete a delivery', () => this.#sql.complete.run(id));
  }

  async failDelivery(id: string, error: string, dead: boolean): Promise<void> {
    await this.#tx('record a failed delivery', () =>
      dead ? this.#sql.complete.run(id) : this.#sql.fail.run(error, id),
    );
  }

  async pendingDeliveries(platform?: string): Promise<PendingDelivery[]> {
    const rows = await this.#read(
      () =>
        (platform === undefined
          ? this.#sql.pendingAll.all()
          : this.#sql.pendingFor.all(platform)) as DeliveryRow[],
    );
    return rows.map(toDelivery);
  }

  async beginTurn(turn: InFlightTurn): Promise<void> {
    const target = JSON.stringify(turn.target);
    await this.#tx('record a running turn', () =>
      this.#sql.beginTurn.run(
        turn.sessionKey,
        turn.sessionId,
        turn.platform,
        target,
        turn.startedAt,
      ),
    );
  }

  async endTurn(sessionKey: string): Promise<void> {
    await this.#tx('record a finished turn', () => this.#sql.endTurn.run(sessionKey));
  }

  async takeCutOffTurns(): Promise<InFlightTurn[]> {
    const rows = await this.#tx('take the cut-off turns', () => {
      const found = this.#sql.turns.all() as TurnRow[];
      this.#sql.clearTurns.run();
      return found;
    });
    return rows.map(toTurn);
  }

  /** Closes the connection; idempotent. Later calls fail with `gateway.store_closed`. */
  async close(): Promise<void> {
    const db = this.#db;
    this.#db = undefined;
    db?.close();
  }
}
