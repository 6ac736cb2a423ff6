/**
 * The job store backends the shared store suites run against: two stores on one database, as two
 * processes would have them. SQLite: two connections to one `state.db` in the test's
 * `HERMES_HOME`. PostgreSQL: two `PostgresDatabase`s (two pools) on one test database per suite,
 * in a schema of the suite's own, with the cron tables emptied before each test, so tests never
 * see each other's rows; skipped (saying why) without a server.
 */
import { join } from 'node:path';
import { PostgresDatabase } from '@hermes/state/postgres';
import {
  createTestDatabase,
  NO_POSTGRES,
  postgresTestUrl,
  type TestDatabase,
} from '@hermes/testkit/postgres';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { openSqliteJobStore } from '../../src/index.js';
import { PostgresJobStore } from '../../src/postgres.js';
import type { JobStore } from '../../src/store/job-store.js';

/** The columns of a job row the bad-row tests look at, the same on both backends. */
export interface RawJobState {
  readonly enabled: boolean;
  readonly leaseOwner: string | null;
  readonly lastError: string | null;
}

/** Two stores on one database, and raw access to its rows (to corrupt them, or read them). */
export interface StorePair {
  readonly a: JobStore;
  readonly b: JobStore;
  /** Writes `value` into text column `column` of job `id`, bypassing the store. */
  setColumn(id: string, column: 'schedule' | 'deliver', value: string): Promise<void>;
  /** The raw lease and pause state of job `id`. */
  rawState(id: string): Promise<RawJobState>;
  close(): Promise<void>;
}

/** One backend of the shared suites. */
export interface StoreBackend {
  readonly name: 'SQLite' | 'PostgreSQL';
  /** False when the backend cannot run here (no PostgreSQL server). */
  readonly available: boolean;
  /** Appended to suite names: why the suite would be skipped. */
  readonly note: string;
  /** Registers the file-level hooks (one PostgreSQL database per test file). */
  setup(): void;
  /** Two fresh stores on one empty database. */
  open(wrap?: (store: JobStore) => JobStore): Promise<StorePair>;
}

const sqlite: StoreBackend = {
  name: 'SQLite',
  available: true,
  note: '',
  setup() {},
  async open(wrap = (store) => store) {
    const home = process.env.HERMES_HOME ?? '';
    const path = join(home, 'state.db');
    const a = wrap(openSqliteJobStore(home));
    const b = wrap(openSqliteJobStore(home));
    const withDb = <T>(fn: (db: Database.Database) => T): T => {
      const db = new Database(path);
      try {
        return fn(db);
      } finally {
        db.close();
      }
    };
    return {
      a,
      b,
      async setColumn(id, column, value) {
        withDb((db) =>
          db.prepare(`UPDATE cron_jobs SET ${column} = ? WHERE id = ?`).run(value, id),
        );
      },
      async rawState(id) {
        const row = withDb((db) =>
          db.prepare('SELECT enabled, lease_owner, last_error FROM cron_jobs WHERE id = ?').get(id),
        ) as { enabled: number; lease_owner: string | null; last_error: string | null };
        return {
          enabled: row.enabled === 1,
          leaseOwner: row.lease_owner,
          lastError: row.last_error,
        };
      },
      async close() {
        await a.close();
        await b.close();
      },
    };
  },
};

/** The test file's database and its two pools (two "processes"), shared by its tests. */
let shared:
  | { database: TestDatabase; pools: readonly [PostgresDatabase, PostgresDatabase] }
  | undefined;
let schemas = 0;

const postgres: StoreBackend = {
  name: 'PostgreSQL',
  available: postgresTestUrl() !== undefined,
  note: NO_POSTGRES,
  setup() {
    // New connections cost tens of milliseconds on a busy machine: the pools (and the suite's own
    // schema) live as long as the suite, and each test starts from empty tables instead.
    beforeAll(async () => {
      const database = await createTestDatabase();
      const options = { url: database.url, schema: `cron_${++schemas}`, poolSize: 4 };
      const pools = [
        await PostgresDatabase.connect(options),
        await PostgresDatabase.connect(options),
      ] as const;
      shared = { database, pools };
    });
    afterAll(async () => {
      const current = shared;
      shared = undefined;
      if (!current) return;
      for (const pool of current.pools) await pool.close();
      await current.database.drop();
    });
  },
  async open(wrap = (store) => store) {
    if (!shared) throw new Error('PostgreSQL backend used without setup()');
    const [one, two] = shared.pools;
    const a = wrap(await PostgresJobStore.open(one));
    const b = wrap(await PostgresJobStore.open(two));
    await one.query('TRUNCATE cron_jobs, cron_runs, cron_pending_deliveries RESTART IDENTITY');
    return {
      a,
      b,
      async setColumn(id, column, value) {
        await one.query(`UPDATE cron_jobs SET ${column} = $1 WHERE id = $2`, [value, id]);
      },
      async rawState(id) {
        const [row] = await one.query<{
          enabled: boolean;
          lease_owner: string | null;
          last_error: string | null;
        }>('SELECT enabled, lease_owner, last_error FROM cron_jobs WHERE id = $1', [id]);
        if (!row) throw new Error(`no job ${id}`);
        return { enabled: row.enabled, leaseOwner: row.lease_owner, lastError: row.last_error };
      },
      async close() {
        // The stores never close the databases they were given: the suite does, in afterAll.
        await a.close();
        await b.close();
      },
    };
  },
};

/** Both backends, SQLite first. */
export const STORE_BACKENDS: readonly StoreBackend[] = [sqlite, postgres];

/**
 * Registers hooks giving each test of the enclosing suite two fresh stores; read them through the
 * returned object inside tests.
 */
export function useStorePair(
  backend: StoreBackend,
  wrap?: (store: JobStore) => JobStore,
): { readonly current: StorePair } {
  const holder: { current: StorePair } = { current: undefined as unknown as StorePair };
  backend.setup();
  beforeEach(async () => {
    holder.current = await backend.open(wrap);
  });
  afterEach(async () => {
    await holder.current.close();
  });
  return holder;
}
