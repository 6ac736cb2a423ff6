/**
 * The job store on PostgreSQL: the `cron_*` tables in the schema of a `PostgresDatabase` shared
 * by every process (gateways, the CLI). Claims lock candidate rows with `FOR UPDATE SKIP LOCKED`
 * and take their leases in the same transaction, so two processes never claim one job while its
 * lease holds and neither waits for the other's claim; a lease that is neither renewed nor
 * released expires and the job is claimable again. Same semantics as `SqliteJobStore`.
 */
import { randomBytes } from 'node:crypto';
import { HermesError, isHermesError } from '@hermes/protocol';
import type { PostgresDatabase, PostgresMigration } from '@hermes/state/postgres';
import type pg from 'pg';
import type { ChatTarget, CronJob, JobPatch, NewJob, PendingDelivery, RunRecord } from '../job.js';
import { type PendingRow, type RunRow, rowToPending, rowToRun } from './job-row.js';
import { type FinishRun, JobStore, type LeaseRequest } from './job-store.js';
import { jobInsertValues, patchAssignments, storedJobValues } from './job-values.js';
import { postgresStoreClosed, postgresStoreFailed } from './postgres-errors.js';
import {
  applyRun,
  insertCopiedHistory,
  insertRun,
  mapOrPause,
  type PgJobRow,
  takeLeases,
  toJob,
} from './postgres-job-writes.js';
import { POSTGRES_JOB_MIGRATIONS } from './postgres-schema.js';
import { RUNS_KEPT_PER_JOB } from './schema.js';

/** The component name of the cron tables in `hermes_migrations`. */
export const JOB_STORE_COMPONENT = 'cron';
/** The cron tables' migrations. */
export const JOB_STORE_MIGRATIONS: readonly PostgresMigration[] = POSTGRES_JOB_MIGRATIONS;

/** Free or expired at `$1`: the condition under which a lease may be taken. */
const LEASE_FREE = '(lease_owner IS NULL OR lease_until IS NULL OR lease_until <= $1)';

/** Anything that runs a statement: the pool, or a client inside a transaction. */
type Queryable = Pick<pg.PoolClient, 'query'>;

/**
 * {@link JobStore} on PostgreSQL. Rows whose JSON columns are corrupt are skipped by `list()`,
 * reported by `get()` as HermesError `cron.bad_job_row`, and paused (with `lastError` saying so)
 * when `claimDue` meets them. Never closes the database it was given.
 */
export class PostgresJobStore extends JobStore {
  readonly database: PostgresDatabase;
  #closed = false;

  protected constructor(database: PostgresDatabase) {
    super();
    this.database = database;
  }

  /**
   * Migrates (once per database, under the migration lock) and opens the store on a database the
   * caller owns and closes.
   *
   * @throws HermesError `cron.store_open_failed` when the tables cannot be created.
   */
  static async open(database: PostgresDatabase): Promise<PostgresJobStore> {
    try {
      await database.migrate(JOB_STORE_COMPONENT, JOB_STORE_MIGRATIONS);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new HermesError(
        'cron.store_open_failed',
        `cannot open the cron job store in PostgreSQL at ${database.label} (schema ${database.schema}): ${reason}`,
        { details: { schema: database.schema }, cause: error },
      );
    }
    return new PostgresJobStore(database);
  }

  async create(job: NewJob, now: number): Promise<CronJob> {
    const values = jobInsertValues(job, now);
    const columns = ['id', ...Object.keys(values)];
    const sql = `INSERT INTO cron_jobs (${columns.join(', ')})
      VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})
      ON CONFLICT (id) DO NOTHING RETURNING *`;
    return this.#run('create a job', async (db) => {
      // 8 hex characters: short enough to type, 4 billion ids; a clash just draws again.
      for (let attempt = 0; attempt < 16; attempt++) {
        const id = randomBytes(4).toString('hex');
        const params = [
          id,
          ...Object.values(values).map((v, i) => this.#pgValue(columns[i + 1], v)),
        ];
        const { rows } = await db.query<PgJobRow>(sql, params);
        if (rows[0]) return toJob(rows[0]);
      }
      throw new HermesError('cron.store_failed', 'could not draw a free job id after 16 tries');
    });
  }

  /**
   * Writes a job read from another store as it stands (id, schedule, next run, counters), with
   * its run history (oldest first) and pending deliveries, in one transaction and without a
   * lease; `'exists'` (and nothing written) when this store already has a job with its id, so a
   * copy run again adds only what it had not copied.
   */
  async importJob(
    job: CronJob,
    history: { readonly runs: readonly RunRecord[]; readonly pending: readonly PendingDelivery[] },
  ): Promise<'imported' | 'exists'> {
    const values = storedJobValues(job);
    const columns = Object.keys(values);
    const params = columns.map((column) => this.#pgValue(column, values[column] ?? null));
    return this.#transaction('copy a job', async (client) => {
      const { rows } = await client.query(
        `INSERT INTO cron_jobs (${columns.join(', ')})
         VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})
         ON CONFLICT (id) DO NOTHING RETURNING id`,
        params,
      );
      if (rows.length === 0) return 'exists';
      await insertCopiedHistory(client, history.runs, history.pending);
      return 'imported';
    });
  }

  async get(id: string): Promise<CronJob | undefined> {
    return this.#run('read a job', async (db) => {
      const { rows } = await db.query<PgJobRow>('SELECT * FROM cron_jobs WHERE id = $1', [id]);
      return rows[0] ? toJob(rows[0]) : undefined;
    });
  }

  async list(): Promise<CronJob[]> {
    const rows = await this.#run('list jobs', async (db) => {
      return (await db.query<PgJobRow>('SELECT * FROM cron_jobs ORDER BY created_at, seq')).rows;
    });
    const jobs: CronJob[] = [];
    for (const row of rows) {
      try {
        jobs.push(toJob(row));
      } catch (error) {
        // A bad row must not hide every other job; `get(id)` says what is wrong with it.
        if (!isHermesError(error)) throw error;
      }
    }
    return jobs;
  }

  async update(id: string, patch: JobPatch, now: number): Promise<CronJob | undefined> {
    // The column names come from the fixed patch map in job-values.ts, never from the caller.
    const { params } = patchAssignments(patch, now);
    const columns = Object.keys(params);
    const set = columns.map((column, i) => `${column} = $${i + 2}`).join(', ');
    const values = columns.map((column) => this.#pgValue(column, params[column] ?? null));
    // In a transaction: a row that cannot be read back rolls the change back, as on SQLite.
    return this.#transaction('update a job', async (client) => {
      const { rows } = await client.query<PgJobRow>(
        `UPDATE cron_jobs SET ${set} WHERE id = $1 RETURNING *`,
        [id, ...values],
      );
      return rows[0] ? toJob(rows[0]) : undefined;
    });
  }

  async remove(id: string): Promise<boolean> {
    return this.#transaction('remove a job', async (client) => {
      // The job row first: its lock orders this after (or before) a finishRun of the same job,
      // so no run is inserted after the history was deleted.
      const { rowCount } = await client.query('DELETE FROM cron_jobs WHERE id = $1', [id]);
      await client.query('DELETE FROM cron_runs WHERE job_id = $1', [id]);
      await client.query('DELETE FROM cron_pending_deliveries WHERE job_id = $1', [id]);
      return rowCount === 1;
    });
  }

  async claimDue(lease: LeaseRequest, limit: number): Promise<CronJob[]> {
    if (limit <= 0) return [];
    return this.#transaction('claim due jobs', async (client) => {
      const claimed: CronJob[] = [];
      // Bad rows are paused as they are met, so the next SELECT no longer returns them.
      for (;;) {
        const { rows } = await client.query<PgJobRow>(
          `SELECT * FROM cron_jobs
           WHERE enabled AND next_run_at IS NOT NULL AND next_run_at <= $1 AND ${LEASE_FREE}
             AND id <> ALL($3::text[])
           ORDER BY next_run_at, created_at, seq LIMIT $2
           FOR UPDATE SKIP LOCKED`,
          [lease.now, limit - claimed.length, claimed.map((job) => job.id)],
        );
        if (rows.length === 0) return claimed;
        const taken: string[] = [];
        for (const row of rows) {
          const job = await mapOrPause(client, row, lease.now);
          if (!job) continue;
          taken.push(job.id);
          claimed.push(job);
        }
        await takeLeases(client, taken, lease);
        if (claimed.length >= limit) return claimed;
      }
    });
  }

  async claim(id: string, lease: LeaseRequest): Promise<CronJob | undefined> {
    return this.#transaction('claim a job', async (client) => {
      // One UPDATE: a concurrent claim waits on the row lock, then sees the lease taken.
      const { rows } = await client.query<PgJobRow>(
        `UPDATE cron_jobs SET lease_owner = $2, lease_until = $3
         WHERE id = $4 AND ${LEASE_FREE} RETURNING *`,
        [lease.now, lease.owner, lease.now + lease.leaseMs, id],
      );
      // A bad row throws here and the transaction rolls the lease back.
      return rows[0] ? toJob(rows[0]) : undefined;
    });
  }

  async renewLease(id: string, lease: LeaseRequest): Promise<boolean> {
    return this.#run('renew a lease', async (db) => {
      const { rowCount } = await db.query(
        'UPDATE cron_jobs SET lease_until = $3 WHERE id = $1 AND lease_owner = $2',
        [id, lease.owner, lease.now + lease.leaseMs],
      );
      return rowCount === 1;
    });
  }

  async releaseLease(id: string, owner: string): Promise<void> {
    await this.#run('release a lease', async (db) => {
      await db.query(
        'UPDATE cron_jobs SET lease_owner = NULL, lease_until = NULL WHERE id = $1 AND lease_owner = $2',
        [id, owner],
      );
    });
  }

  /**
   * Records the run in the history whatever the lease says (it did happen), but changes the job
   * only while the lease is `run.owner`'s or free: a runner that stalled past its lease and
   * whose job another owner re-claimed must not overwrite that owner's newer state or lease.
   */
  async finishRun(id: string, run: FinishRun): Promise<CronJob | undefined> {
    return this.#transaction('record a run', async (client) => {
      const { rows } = await client.query<{ lease_owner: string | null }>(
        'SELECT lease_owner FROM cron_jobs WHERE id = $1 FOR UPDATE',
        [id],
      );
      const row = rows[0];
      if (!row) return undefined;
      await insertRun(client, id, run);
      if (row.lease_owner === null || row.lease_owner === run.owner) {
        await applyRun(client, id, run);
      }
      const job = await client.query<PgJobRow>('SELECT * FROM cron_jobs WHERE id = $1', [id]);
      return job.rows[0] ? toJob(job.rows[0]) : undefined;
    });
  }

  async listRuns(jobId: string, limit = RUNS_KEPT_PER_JOB): Promise<RunRecord[]> {
    return this.#run('list runs', async (db) => {
      const { rows } = await db.query<RunRow>(
        'SELECT * FROM cron_runs WHERE job_id = $1 ORDER BY id DESC LIMIT $2',
        [jobId, limit],
      );
      return rows.map(rowToRun);
    });
  }

  async addPendingDelivery(
    delivery: { readonly jobId: string; readonly target: ChatTarget; readonly text: string },
    now: number,
  ): Promise<PendingDelivery> {
    return this.#run('queue a delivery', async (db) => {
      const { rows } = await db.query<PendingRow>(
        `INSERT INTO cron_pending_deliveries (job_id, target, text, created_at)
         VALUES ($1, $2, $3, $4) RETURNING *`,
        [delivery.jobId, JSON.stringify(delivery.target), delivery.text, now],
      );
      return rowToPending(rows[0] as PendingRow);
    });
  }

  async listPendingDeliveries(): Promise<PendingDelivery[]> {
    return this.#run('list pending deliveries', async (db) => {
      const { rows } = await db.query<PendingRow>(
        'SELECT * FROM cron_pending_deliveries ORDER BY id',
      );
      return rows.map(rowToPending);
    });
  }

  async removePendingDelivery(id: number): Promise<void> {
    await this.#run('remove a pending delivery', async (db) => {
      await db.query('DELETE FROM cron_pending_deliveries WHERE id = $1', [id]);
    });
  }

  async notePendingFailure(id: number, error: string): Promise<void> {
    await this.#run('record a failed delivery', async (db) => {
      await db.query(
        'UPDATE cron_pending_deliveries SET attempts = attempts + 1, last_error = $2 WHERE id = $1',
        [id, error],
      );
    });
  }

  async setDeliveryError(jobId: string, error: string | null): Promise<void> {
    await this.#run('record a delivery result', async (db) => {
      await db.query('UPDATE cron_jobs SET last_delivery_error = $2 WHERE id = $1', [jobId, error]);
    });
  }

  /** Marks the store closed; the database stays open (its owner closes it). Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
  }

  /** `enabled` is BOOLEAN here and 0/1 in the dialect-free values of job-values.ts. */
  #pgValue(
    column: string | undefined,
    value: string | number | null,
  ): string | number | boolean | null {
    return column === 'enabled' ? value === 1 : value;
  }

  /** Runs `work` on the pool, turning driver errors into `cron.store_failed`. */
  async #run<T>(what: string, work: (db: Queryable) => Promise<T>): Promise<T> {
    if (this.#closed) throw postgresStoreClosed(what);
    try {
      return await work(this.database.pool);
    } catch (error) {
      throw postgresStoreFailed(what, error);
    }
  }

  /** Runs `work` in one transaction, turning driver errors into `cron.store_failed`. */
  async #transaction<T>(what: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    if (this.#closed) throw postgresStoreClosed(what);
    try {
      return await this.database.transaction(work);
    } catch (error) {
      throw postgresStoreFailed(what, error);
    }
  }
}
