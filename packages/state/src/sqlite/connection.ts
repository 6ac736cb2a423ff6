/** Opening a SQLite session database: file checks, pragmas, migrations, write transactions. */
import { closeSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isHermesError } from '@hermes/protocol';
import Database from 'better-sqlite3';
import {
  busyError,
  corruptDatabaseError,
  openFailedError,
  persistenceFailedError,
  schemaTooNewError,
} from './errors.js';
import {
  LATEST_SCHEMA_VERSION,
  MIGRATIONS,
  TRIGRAM_FALLBACK_SQL,
  TRIGRAM_TABLE_SQL,
} from './migrations.js';

/** A better-sqlite3 handle. */
export type SqliteDatabase = Database.Database;

/** How to open the database. */
export interface OpenDatabaseOptions {
  /** Open without write access: no migrations, every write fails with `state.persistence_failed`. */
  readonly readonly?: boolean;
}

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

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
  if (!header.equals(SQLITE_HEADER)) throw corruptDatabaseError(path);
}

function isCorruption(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT';
}

function createHandle(path: string, readonly: boolean): SqliteDatabase {
  try {
    return new Database(path, { readonly, fileMustExist: readonly });
  } catch (error) {
    throw openFailedError(path, error);
  }
}

/**
 * Opens (creating when absent) the session database at `path` and brings its schema up to date.
 * Never writes to a file that is not SQLite or whose schema is newer than this build.
 */
export function openDatabase(path: string, options: OpenDatabaseOptions = {}): SqliteDatabase {
  if (path === MEMORY_PATH && !options.readonly) return openMemoryDatabase();
  if (!options.readonly) mkdirSync(dirname(path), { recursive: true });
  assertSqliteFile(path);
  const db = createHandle(path, options.readonly ?? false);
  try {
    db.pragma('busy_timeout = 5000');
    // Read before any pragma that writes (journal_mode rewrites the header).
    const version = db.pragma('user_version', { simple: true }) as number;
    // Reading the schema page catches a damaged file before anything is written to it.
    db.prepare('SELECT count(*) FROM sqlite_master').pluck().get();
    if (version > LATEST_SCHEMA_VERSION)
      throw schemaTooNewError(path, version, LATEST_SCHEMA_VERSION);
    db.pragma('foreign_keys = ON');
    if (!options.readonly) {
      db.pragma('journal_mode = WAL');
      // WAL + NORMAL: a SIGKILL loses nothing committed; a power cut may lose the last commits
      // but never corrupts the file. FULL would fsync every commit, too slow for per-turn appends.
      db.pragma('synchronous = NORMAL');
      // A checkpoint runs inside whichever commit crosses this many WAL pages and fsyncs the
      // file: at the default 1,000 it cost a third of a run of small appends. Idle-time flushes
      // checkpoint too (see fts-index.ts), so the WAL rarely gets near this bound (16 MiB).
      db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
      migrate(db, version);
    }
    return db;
  } catch (error) {
    db.close();
    if (isCorruption(error)) throw corruptDatabaseError(path, error);
    throw error;
  }
}

const MEMORY_PATH = ':memory:';
let memoryTemplate: Buffer | undefined;

/**
 * A new in-memory database with the current schema. The migrations run once per process into a
 * template that every later in-memory store copies: running them costs milliseconds of the event
 * loop (tables, FTS5 tables, the trigram probe), and a gateway opens one for every background
 * review, where a copy costs microseconds.
 */
function openMemoryDatabase(): SqliteDatabase {
  if (memoryTemplate === undefined) {
    const template = createHandle(MEMORY_PATH, false);
    try {
      migrate(template, 0);
      memoryTemplate = template.serialize();
    } finally {
      template.close();
    }
  }
  let db: SqliteDatabase;
  try {
    db = new Database(memoryTemplate);
  } catch (error) {
    throw openFailedError(MEMORY_PATH, error);
  }
  db.pragma('foreign_keys = ON');
  return db;
}

function trigramAvailable(db: SqliteDatabase): boolean {
  try {
    db.exec("CREATE VIRTUAL TABLE temp.trigram_probe USING fts5(x, tokenize='trigram')");
    db.exec('DROP TABLE temp.trigram_probe');
    return true;
  } catch {
    return false;
  }
}

/** Applies every migration newer than `from`, each in its own IMMEDIATE transaction. */
function migrate(db: SqliteDatabase, from: number): void {
  const trigram = trigramAvailable(db);
  for (const migration of MIGRATIONS) {
    if (migration.version <= from) continue;
    db.transaction(() => {
      // Another process may have migrated while we waited for the lock.
      const now = db.pragma('user_version', { simple: true }) as number;
      if (now >= migration.version) return;
      for (const sql of migration.up) {
        db.exec(sql === TRIGRAM_TABLE_SQL && !trigram ? TRIGRAM_FALLBACK_SQL : sql);
      }
      if (migration.version === 1) {
        db.prepare(
          "INSERT OR REPLACE INTO kv(namespace, key, value, updated_at) VALUES ('state', 'trigram', ?, ?)",
        ).run(JSON.stringify(trigram), Date.now());
      }
      db.pragma(`user_version = ${migration.version}`);
    }).immediate();
  }
}

const BUSY_BUDGET_MS = 30_000;

/** WAL pages before a commit checkpoints (4 KiB pages: 16 MiB). */
export const WAL_AUTOCHECKPOINT_PAGES = 4_000;

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/** One transaction wrapper per handle: building it per call showed up in append profiles. */
const runners = new WeakMap<SqliteDatabase, Database.Transaction<(fn: () => unknown) => unknown>>();

function transactionRunner(
  db: SqliteDatabase,
): Database.Transaction<(fn: () => unknown) => unknown> {
  let runner = runners.get(db);
  if (!runner) {
    runner = db.transaction((fn: () => unknown) => fn());
    runners.set(db, runner);
  }
  return runner;
}

/**
 * Runs `fn` in a `BEGIN IMMEDIATE` transaction, retrying with jittered backoff while other
 * processes hold the write lock (beyond the driver's busy timeout), up to a bounded total wait.
 * Failures other than `HermesError` become `state.persistence_failed`.
 */
export async function writeTransaction<T>(
  db: SqliteDatabase,
  what: string,
  fn: () => T,
): Promise<T> {
  const started = Date.now();
  let delay = 20;
  for (;;) {
    try {
      return transactionRunner(db).immediate(fn) as T;
    } catch (error) {
      if (isHermesError(error)) throw error;
      const waited = Date.now() - started;
      if (!isBusy(error)) throw persistenceFailedError(db.name, what, error);
      if (waited >= BUSY_BUDGET_MS) throw busyError(db.name, waited);
      await sleep(delay / 2 + Math.random() * delay);
      delay = Math.min(delay * 2, 1000);
    }
  }
}
