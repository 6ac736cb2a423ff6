/**
 * The job store on SQLite: the `cron_*` tables of `HERMES_HOME/state.db`. Every claim is one
 * `BEGIN IMMEDIATE` transaction, so two processes (or two connections) never claim one job while
 * its lease holds; a lease that is neither renewed nor released expires and the job is claimable
 * again, so a crashed runner never blocks its job for longer than one lease.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { HermesError, isHermesError } from '@hermes/protocol';
import type { ChatTarget, CronJob, JobPatch, NewJob, PendingDelivery, RunRecord } from '../job.js';
import { type CronDatabase, openCronDatabase, read, writeTransaction } from './connection.js';
import {
  type JobRow,
  type PendingRow,
  type RunRow,
  rowToJob,
  rowToPending,
  rowToRun,
} from './job-row.js';
import { type FinishRun, JobStore, type LeaseRequest } from './job-store.js';
import { jobInsertValues, patchAssignments } from './job-values.js';
import { RUNS_KEPT_PER_JOB } from './schema.js';

/** Options of {@link SqliteJobStore}. */
export interface SqliteJobStoreOptions {
  /** The database file, normally `HERMES_HOME/state.db` (shared with `@hermes/state`). */
  readonly path: string;
}

/** Free or expired: the condition under which a lease may be taken. */
const LEASE_FREE = '(lease_owner IS NULL OR lease_until IS NULL OR lease_until <= @now)';

/**
 * {@link JobStore} on SQLite. Rows whose JSON columns are corrupt are skipped by `list()`,
 * reported by `get()` as HermesError `cron.bad_job_row`, and paused (with `lastError` saying so)
 * when `claimDue` meets them, so they cannot take the slots of healthy jobs tick after tick.
 */
export class SqliteJobStore extends JobStore {
  private readonly db: CronDatabase;
  private closed = false;

  constructor(options: SqliteJobStoreOptions) {
    super();
    this.db = openCronDatabase(options.path);
  }

  async create(job: NewJob, now: number): Promise<CronJob> {
    return writeTransaction(this.db, 'create a job', () => {
      const values = jobInsertValues(job, now);
      const columns = ['id', ...Object.keys(values)];
      const insert = this.db.prepare(
        `INSERT OR IGNORE INTO cron_jobs (${columns.join(', ')})
         VALUES (${columns.map((column) => `@${column}`).join(', ')})`,
      );
      // 8 hex characters: short enough to type, 4 billion ids; a clash just draws again.
      for (let attempt = 0; attempt < 16; attempt++) {
        const id = randomBytes(4).toString('hex');
        if (insert.run({ ...values, id }).changes === 1) return this.readJob(id) as CronJob;
      }
      throw new HermesError('cron.store_failed', 'could not draw a free job id after 16 tries');
    });
  }

  async get(id: string): Promise<CronJob | undefined> {
    return read('read a job', () => this.readJob(id));
  }

  async list(): Promise<CronJob[]> {
    const rows = read('list jobs', () =>
      this.db.prepare('SELECT * FROM cron_jobs ORDER BY created_at, rowid').all(),
    ) as JobRow[];
    const jobs: CronJob[] = [];
    for (const row of rows) {
      try {
        jobs.push(rowToJob(row));
      } catch (error) {
        // A bad row must not hide every other job; `get(id)` says what is wrong with it.
        if (!isHermesError(error)) throw error;
      }
    }
    return jobs;
  }

  async update(id: string, patch: JobPatch, now: number): Promise<CronJob | undefined> {
    return writeTransaction(this.db, 'update a job', () => {
      const { sql, params } = patchAssignments(patch, now);
      const result = this.db
        .prepare(`UPDATE cron_jobs SET ${sql} WHERE id = @id`)
        .run({ ...params, id });
      return result.changes === 0 ? undefined : this.readJob(id);
    });
  }

  async remove(id: string): Promise<boolean> {
    return writeTransaction(this.db, 'remove a job', () => {
      this.db.prepare('DELETE FROM cron_runs WHERE job_id = ?').run(id);
      this.db.prepare('DELETE FROM cron_pending_deliveries WHERE job_id = ?').run(id);
      return this.db.prepare('DELETE FROM cron_jobs WHERE id = ?').run(id).changes === 1;
    });
  }

  async claimDue(lease: LeaseRequest, limit: number): Promise<CronJob[]> {
    if (limit <= 0) return [];
    return writeTransaction(this.db, 'claim due jobs', () => {
      const due = this.db.prepare(
        `SELECT * FROM cron_jobs
         WHERE enabled = 1 AND next_run_at IS NOT NULL AND next_run_at <= @now AND ${LEASE_FREE}
         ORDER BY next_run_at, created_at, rowid LIMIT @limit`,
      );
      const claimed: CronJob[] = [];
      // Bad rows are paused as they are met, so the next SELECT no longer returns them.
      for (;;) {
        const rows = due.all({ now: lease.now, limit: limit - claimed.length }) as JobRow[];
        if (rows.length === 0) return claimed;
        for (const row of rows) {
          const job = this.mapOrPause(row, lease.now);
          if (!job) continue;
          this.takeLease(job.id, lease);
          claimed.push(job);
        }
        if (claimed.length >= limit) return claimed;
      }
    });
  }

  async claim(id: string, lease: LeaseRequest): Promise<CronJob | undefined> {
    return writeTransaction(this.db, 'claim a job', () => {
      const row = this.db
        .prepare(`SELECT * FROM cron_jobs WHERE id = @id AND ${LEASE_FREE}`)
        .get({ id, now: lease.now }) as JobRow | undefined;
      if (!row) return undefined;
      const job = rowToJob(row); // a bad row throws here and the transaction takes no lease
      this.takeLease(id, lease);
      return job;
    });
  }

  async renewLease(id: string, lease: LeaseRequest): Promise<boolean> {
    return writeTransaction(this.db, 'renew a lease', () => {
      const result = this.db
        .prepare(
          'UPDATE cron_jobs SET lease_until = @until WHERE id = @id AND lease_owner = @owner',
        )
        .run({ id, owner: lease.owner, until: lease.now + lease.leaseMs });
      return result.changes === 1;
    });
  }

  async releaseLease(id: string, owner: string): Promise<void> {
    await writeTransaction(this.db, 'release a lease', () => {
      this.db
        .prepare(
          'UPDATE cron_jobs SET lease_owner = NULL, lease_until = NULL WHERE id = ? AND lease_owner = ?',
        )
        .run(id, owner);
    });
  }

  /**
   * Records the run in the history whatever the lease says (it did happen), but changes the job
   * only while the lease is `run.owner`'s or free: a runner that stalled past its lease and
   * whose job another owner re-claimed must not overwrite that owner's newer state or lease.
   */
  async finishRun(id: string, run: FinishRun): Promise<CronJob | undefined> {
    return writeTransaction(this.db, 'record a run', () => {
      const row = this.db.prepare('SELECT lease_owner FROM cron_jobs WHERE id = ?').get(id) as
        | Pick<JobRow, 'lease_owner'>
        | undefined;
      if (!row) return undefined;
      this.insertRun(id, run);
      if (row.lease_owner === null || row.lease_owner === run.owner) this.applyRun(id, run);
      return this.readJob(id);
    });
  }

  async listRuns(jobId: string, limit = RUNS_KEPT_PER_JOB): Promise<RunRecord[]> {
    const rows = read('list runs', () =>
      this.db
        .prepare('SELECT * FROM cron_runs WHERE job_id = ? ORDER BY id DESC LIMIT ?')
        .all(jobId, limit),
    ) as RunRow[];
    return rows.map(rowToRun);
  }

  async addPendingDelivery(
    delivery: { readonly jobId: string; readonly target: ChatTarget; readonly text: string },
    now: number,
  ): Promise<PendingDelivery> {
    return writeTransaction(this.db, 'queue a delivery', () => {
      const { lastInsertRowid } = this.db
        .prepare(
          'INSERT INTO cron_pending_deliveries (job_id, target, text, created_at) VALUES (?, ?, ?, ?)',
        )
        .run(delivery.jobId, JSON.stringify(delivery.target), delivery.text, now);
      const row = this.db
        .prepare('SELECT * FROM cron_pending_deliveries WHERE id = ?')
        .get(lastInsertRowid) as PendingRow;
      return rowToPending(row);
    });
  }

  async listPendingDeliveries(): Promise<PendingDelivery[]> {
    const rows = read('list pending deliveries', () =>
      this.db.prepare('SELECT * FROM cron_pending_deliveries ORDER BY id').all(),
    ) as PendingRow[];
    return rows.map(rowToPending);
  }

  async removePendingDelivery(id: number): Promise<void> {
    await writeTransaction(this.db, 'remove a pending delivery', () => {
      this.db.prepare('DELETE FROM cron_pending_deliveries WHERE id = ?').run(id);
    });
  }

  async notePendingFailure(id: number, error: string): Promise<void> {
    await writeTransaction(this.db, 'record a failed delivery', () => {
      this.db
        .prepare(
          'UPDATE cron_pending_deliveries SET attempts = attempts + 1, last_error = ? WHERE id = ?',
        )
        .run(error, id);
    });
  }

  async setDeliveryError(jobId: string, error: string | null): Promise<void> {
    await writeTransaction(this.db, 'record a delivery result', () => {
      this.db
        .prepare('UPDATE cron_jobs SET last_delivery_error = ? WHERE id = ?')
        .run(error, jobId);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.db.close();
  }

  private readJob(id: string): CronJob | undefined {
    const row = this.db.prepare('SELECT * FROM cron_jobs WHERE id = ?').get(id) as
      | JobRow
      | undefined;
    return row ? rowToJob(row) : undefined;
  }

  private takeLease(id: string, lease: LeaseRequest): void {
    this.db
      .prepare('UPDATE cron_jobs SET lease_owner = ?, lease_until = ? WHERE id = ?')
      .run(lease.owner, lease.now + lease.leaseMs, id);
  }

  /** The job in `row`, or undefined after pausing a row that cannot be read. */
  private mapOrPause(row: JobRow, now: number): CronJob | undefined {
    try {
      return rowToJob(row);
    } catch (error) {
      if (!isHermesError(error)) throw error;
      this.db
        .prepare(
          `UPDATE cron_jobs SET enabled = 0, lease_owner = NULL, lease_until = NULL,
           last_error = ?, updated_at = ? WHERE id = ?`,
        )
        .run(error.message, now, row.id);
      return undefined;
    }
  }

  private insertRun(id: string, run: FinishRun): void {
    const { outcome } = run;
    this.db
      .prepare(
        `INSERT INTO cron_runs (job_id, started_at, finished_at, status, error, output, output_path,
         delivery_error, session_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        id,
        run.startedAt,
        run.finishedAt,
        outcome.status,
        outcome.error ?? null,
        outcome.output,
        outcome.outputPath ?? null,
        outcome.deliveryError ?? null,
        outcome.sessionId ?? null,
      );
    this.db
      .prepare(
        `DELETE FROM cron_runs WHERE job_id = @id AND id NOT IN
         (SELECT id FROM cron_runs WHERE job_id = @id ORDER BY id DESC LIMIT @keep)`,
      )
      .run({ id, keep: RUNS_KEPT_PER_JOB });
  }

  /** The job's state after a run; `lastDeliveryError` is the executor's (`setDeliveryError`). */
  private applyRun(id: string, run: FinishRun): void {
    const failed = run.outcome.status === 'error' || run.outcome.status === 'blocked';
    this.db
      .prepare(
        `UPDATE cron_jobs SET last_run_at = @startedAt, last_status = @status, last_error = @error,
         failure_streak = CASE WHEN @failed THEN failure_streak + 1 ELSE 0 END,
         repeat_completed = repeat_completed + 1, next_run_at = @nextRunAt, enabled = @enabled,
         updated_at = @finishedAt, lease_owner = NULL, lease_until = NULL WHERE id = @id`,
      )
      .run({
        id,
        startedAt: run.startedAt,
        finishedAt: run.finishedAt,
        status: run.outcome.status,
        error: run.outcome.error ?? null,
        failed: failed ? 1 : 0,
        nextRunAt: run.nextRunAt,
        enabled: run.enabled ? 1 : 0,
      });
  }
}

/** Opens the job store in `hermesHome/state.db`. */
export function openSqliteJobStore(hermesHome: string): SqliteJobStore {
  return new SqliteJobStore({ path: join(hermesHome, 'state.db') });
}
