/**
 * Opening the gateway's tables in a SQLite file (normally `HERMES_HOME/state.db`, beside the
 * session store's tables): file checks, pragmas, the gateway's own migrations, and transactions
 * that wait for other processes without blocking the event loop. Same rules as `@hermes/state`:
 * WAL, `synchronous = NORMAL` (a SIGKILL loses nothing committed), bounded busy retries.
 */
import { closeSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { HermesError, isHermesError } from '@hermes/protocol';
import Database from 'better-sqlite3';

/** A better-sqlite3 handle. */
export type SqliteDatabase = Database.Database;

/** One step of the gateway's schema; never edit a released one, append a new version. */
interface Migration {
  readonly version: number;
  readonly name: string;
  readonly up: readonly string[];
}

/**
 * The gateway's own migration table. The session store tracks its schema in `user_version`;
 * the gateway never touches that, so either can be upgraded without the other.
 */
const MIGRATION_TABLE_SQL = `CREATE TABLE IF NOT EXISTS gateway_migrations (
  version INTEGER PRIMARY KEY NOT NULL, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`;

const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'routes, hygiene cooldowns, delivery ledger, in-flight turns',
    up: [
      `CREATE TABLE gateway_routes (
        key TEXT PRIMARY KEY NOT NULL, session_id TEXT NOT NULL, platform TEXT NOT NULL,
        created_at INTEGER NOT NULL, last_active_at INTEGER NOT NULL)`,
      `CREATE TABLE gateway_hygiene (
        key TEXT PRIMARY KEY NOT NULL, failures INTEGER NOT NULL,
        cooldown_until INTEGER NOT NULL)`,
      // seq keeps insertion order among replies created in the same millisecond.
      `CREATE TABLE gateway_deliveries (
        seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE,
        session_key TEXT NOT NULL, platform TEXT NOT NULL, target TEXT NOT NULL,
        text TEXT NOT NULL, sent_parts INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, last_error TEXT)`,
      'CREATE INDEX gateway_deliveries_order ON gateway_deliveries(created_at, seq)',
      `CREATE TABLE gateway_turns (
        session_key TEXT PRIMARY KEY NOT NULL, session_id TEXT NOT NULL,
        platform TEXT NOT NULL, target TEXT NOT NULL, started_at INTEGER NOT NULL)`,
    ],
  },
];

/** The gateway schema version this build writes. */
export const GATEWAY_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/** How long opening waits for the lock (a migration elsewhere). */
const OPEN_BUSY_MS = 5_000;
/** How long the driver itself waits for a lock; the rest of the wait is async (see below). */
const DRIVER_BUSY_MS = 100;
/** Total time a write keeps retrying while other processes hold the lock. */
const BUSY_BUDGET_MS = 30_000;

function openError(path: string, reason: string, cause?: unknown): HermesError {
  return new HermesError(
    'gateway.store_open_failed',
    `Could not open the gateway store ${path}: ${reason}. It was left untouched; check the path and its permissions, or run \`hermes doctor\`.`,
    { details: { path }, cause },
  );
}

/** Refuses an existing non-empty file that does not start with the SQLite header. */
function assertSqliteFile(path: string): void {
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    return; // no file yet: SQLite creates it
  }
  if (size === 0) return;
  const header = Buffer.alloc(SQLITE_HEADER.length);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, header, 0, header.length, 0);
  } finally {
    closeSync(fd);
  }
  if (!header.equals(SQLITE_HEADER)) throw openError(path, 'it is not a SQLite database');
}

function schemaVersion(db: SqliteDatabase): number {
  const table = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'gateway_migrations'")
    .pluck()
    .get();
  if (table === undefined) return 0;
  const version = db.prepare('SELECT max(version) FROM gateway_migrations').pluck().get();
  return typeof version === 'number' ? version : 0;
}

/** Applies the missing migrations in one IMMEDIATE transaction (all or nothing). */
function migrate(db: SqliteDatabase, path: string): void {
  const found = schemaVersion(db);
  if (found > GATEWAY_SCHEMA_VERSION) {
    throw new HermesError(
      'gateway.store_schema_too_new',
      `The gateway tables in ${path} have schema version ${found}, but this build supports up to ${GATEWAY_SCHEMA_VERSION}. They were left untouched; upgrade Hermes to open them.`,
      { details: { path, found, supported: GATEWAY_SCHEMA_VERSION } },
    );
  }
  if (found === GATEWAY_SCHEMA_VERSION) return;
  db.transaction(() => {
    db.exec(MIGRATION_TABLE_SQL);
    // Another process may have migrated while we waited for the lock.
    const now = schemaVersion(db);
    const record = db.prepare('INSERT INTO gateway_migrations VALUES (?, ?, ?)');
    for (const migration of MIGRATIONS) {
      if (migration.version <= now) continue;
      for (const sql of migration.up) db.exec(sql);
      record.run(migration.version, migration.name, Date.now());
    }
  }).immediate();
}

/** Opens (creating when absent) the database at `path` and brings the gateway tables up to date. */
export function openGatewayDatabase(path: string): SqliteDatabase {
  mkdirSync(dirname(path), { recursive: true });
  assertSqliteFile(path);
  let db: SqliteDatabase;
  try {
    db = new Database(path);
  } catch (error) {
    throw openError(path, error instanceof Error ? error.message : String(error), error);
  }
  try {
    // Opening may wait for another process's migration (the session store's takes a while);
    // once open, the driver waits only briefly and `withRetry` waits without blocking.
    db.pragma(`busy_timeout = ${OPEN_BUSY_MS}`);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    migrate(db, path);
    db.pragma(`busy_timeout = ${DRIVER_BUSY_MS}`);
    return db;
  } catch (error) {
    db.close();
    if (isHermesError(error)) throw error;
    throw openError(path, error instanceof Error ? error.message : String(error), error);
  }
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/**
 * Runs `fn` (a read, or a write in a `BEGIN IMMEDIATE` transaction) and retries with jittered
 * backoff while another process holds the lock, up to {@link BUSY_BUDGET_MS}. Failures become
 * `gateway.store_failed` (nothing of the write was kept) or `gateway.store_busy`.
 */
export async function withRetry<T>(db: SqliteDatabase, what: string, fn: () => T): Promise<T> {
  const started = Date.now();
  let delay = 10;
  for (;;) {
    try {
      return fn();
    } catch (error) {
      if (isHermesError(error)) throw error;
      const waited = Date.now() - started;
      if (!isBusy(error)) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new HermesError(
          'gateway.store_failed',
          `Could not ${what} in ${db.name}: ${reason}. Nothing of this write was saved.`,
          { details: { path: db.name, what }, cause: error },
        );
      }
      if (waited >= BUSY_BUDGET_MS) {
        throw new HermesError(
          'gateway.store_busy',
          `The gateway store ${db.name} stayed locked by other processes for ${waited} ms; try again.`,
          { details: { path: db.name, waitedMs: waited }, retryable: true },
        );
      }
      await sleep(delay / 2 + Math.random() * delay);
      delay = Math.min(delay * 2, 500);
    }
  }
}
