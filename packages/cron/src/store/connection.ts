/** Opening `state.db` for the job store: pragmas as `@hermes/state` sets them, busy retries. */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { HermesError, isHermesError } from '@hermes/protocol';
import Database from 'better-sqlite3';
import { CRON_SCHEMA } from './schema.js';

/** A better-sqlite3 handle. */
export type CronDatabase = Database.Database;

/** How long one statement waits for another process's write lock inside SQLite. */
const BUSY_TIMEOUT_MS = 5000;
/** How long a write keeps retrying (with backoff) after SQLite gave up waiting. */
const BUSY_BUDGET_MS = 30_000;

/**
 * Opens (creating when absent) the database at `path`, with WAL and a busy timeout, and creates
 * the cron tables. Throws HermesError `cron.store_open_failed` naming the file when it cannot be
 * opened or is not a SQLite database.
 */
export function openCronDatabase(path: string): CronDatabase {
  let db: CronDatabase | undefined;
  try {
    mkdirSync(dirname(path), { recursive: true });
    db = new Database(path);
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.pragma('journal_mode = WAL');
    // As @hermes/state: WAL + NORMAL loses nothing committed on a process crash.
    db.pragma('synchronous = NORMAL');
    const schema = db;
    db.transaction(() => {
      for (const sql of CRON_SCHEMA) schema.exec(sql);
    }).immediate();
    return db;
  } catch (error) {
    db?.close();
    const reason = error instanceof Error ? error.message : String(error);
    throw new HermesError(
      'cron.store_open_failed',
      `cannot open the cron job store at ${path}: ${reason}`,
      { details: { path }, cause: error },
    );
  }
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/**
 * Runs `fn` in a `BEGIN IMMEDIATE` transaction (the write lock is taken before the first read,
 * so a claim's read and write are one atomic step), retrying with jittered backoff while another
 * process holds the lock. Failures other than HermesError become `cron.store_failed`.
 */
export async function writeTransaction<T>(db: CronDatabase, what: string, fn: () => T): Promise<T> {
  const started = Date.now();
  let delay = 20;
  for (;;) {
    try {
      return db.transaction(fn).immediate();
    } catch (error) {
      if (isHermesError(error)) throw error;
      if (!isBusy(error) || Date.now() - started >= BUSY_BUDGET_MS) throw storeFailed(what, error);
      await sleep(delay / 2 + Math.random() * delay);
      delay = Math.min(delay * 2, 1000);
    }
  }
}

/** Runs a read, turning driver errors into `cron.store_failed`. */
export function read<T>(what: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (isHermesError(error)) throw error;
    throw storeFailed(what, error);
  }
}

function storeFailed(what: string, error: unknown): HermesError {
  const reason = error instanceof Error ? error.message : String(error);
  return new HermesError('cron.store_failed', `the cron job store could not ${what}: ${reason}`, {
    cause: error,
    retryable: isBusy(error),
  });
}
