/**
 * The PostgreSQL job store's rows and the writes its transactions share: reading a row (whose
 * `enabled` is a BOOLEAN) through the dialect-free mapping of `job-row.ts`, taking leases,
 * pausing unreadable rows, and recording a run. Each runs on the caller's transaction client.
 */
import { isHermesError } from '@hermes/protocol';
import type pg from 'pg';
import type { CronJob, PendingDelivery, RunOutcome, RunRecord } from '../job.js';
import { type JobRow, rowToJob } from './job-row.js';
import type { FinishRun, LeaseRequest } from './job-store.js';
import { RUNS_KEPT_PER_JOB } from './schema.js';

/** A `cron_jobs` row as PostgreSQL returns it: `enabled` is a boolean there. */
export type PgJobRow = Omit<JobRow, 'enabled'> & { enabled: boolean };

/** The job in `row`; throws `cron.bad_job_row` as `rowToJob` does. */
export function toJob(row: PgJobRow): CronJob {
  return rowToJob({ ...row, enabled: row.enabled ? 1 : 0 });
}

/** Gives `lease` on the jobs `ids` (rows the caller's transaction has locked). */
export async function takeLeases(
  client: pg.PoolClient,
  ids: readonly string[],
  lease: LeaseRequest,
): Promise<void> {
  if (ids.length === 0) return;
  await client.query(
    'UPDATE cron_jobs SET lease_owner = $1, lease_until = $2 WHERE id = ANY($3::text[])',
    [lease.owner, lease.now + lease.leaseMs, ids],
  );
}

/** The job in `row`, or undefined after pausing a row that cannot be read. */
export async function mapOrPause(
  client: pg.PoolClient,
  row: PgJobRow,
  now: number,
): Promise<CronJob | undefined> {
  try {
    return toJob(row);
  } catch (error) {
    if (!isHermesError(error)) throw error;
    await client.query(
      `UPDATE cron_jobs SET enabled = FALSE, lease_owner = NULL, lease_until = NULL,
       last_error = $2, updated_at = $3 WHERE id = $1`,
      [row.id, error.message, now],
    );
    return undefined;
  }
}

/** One `cron_runs` row: `outcome` of job `jobId`'s run between `startedAt` and `finishedAt`. */
async function insertRunRow(
  client: pg.PoolClient,
  jobId: string,
  times: { readonly startedAt: number; readonly finishedAt: number },
  outcome: RunOutcome,
): Promise<void> {
  await client.query(
    `INSERT INTO cron_runs (job_id, started_at, finished_at, status, error, output, output_path,
     delivery_error, session_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      jobId,
      times.startedAt,
      times.finishedAt,
      outcome.status,
      outcome.error ?? null,
      outcome.output,
      outcome.outputPath ?? null,
      outcome.deliveryError ?? null,
      outcome.sessionId ?? null,
    ],
  );
}

/** Appends a run to the history and trims it to the newest {@link RUNS_KEPT_PER_JOB}. */
export async function insertRun(client: pg.PoolClient, id: string, run: FinishRun): Promise<void> {
  await insertRunRow(client, id, run, run.outcome);
  // The job row is locked (finishRun), so trims of one job never interleave.
  await client.query(
    `DELETE FROM cron_runs WHERE job_id = $1 AND id NOT IN
     (SELECT id FROM cron_runs WHERE job_id = $1 ORDER BY id DESC LIMIT $2)`,
    [id, RUNS_KEPT_PER_JOB],
  );
}

/** The job's state after a run; `lastDeliveryError` is the executor's (`setDeliveryError`). */
export async function applyRun(client: pg.PoolClient, id: string, run: FinishRun): Promise<void> {
  const failed = run.outcome.status === 'error' || run.outcome.status === 'blocked';
  await client.query(
    `UPDATE cron_jobs SET last_run_at = $2, last_status = $3, last_error = $4,
     failure_streak = CASE WHEN $5 THEN failure_streak + 1 ELSE 0 END,
     repeat_completed = repeat_completed + 1, next_run_at = $6, enabled = $7,
     updated_at = $8, lease_owner = NULL, lease_until = NULL WHERE id = $1`,
    [
      id,
      run.startedAt,
      run.outcome.status,
      run.outcome.error ?? null,
      failed,
      run.nextRunAt,
      run.enabled,
      run.finishedAt,
    ],
  );
}

/**
 * Writes a copied job's history: `runs` oldest first (ids keep their order) and its `pending`
 * deliveries with their attempts, so the new store sends what the old one still owed.
 */
export async function insertCopiedHistory(
  client: pg.PoolClient,
  runs: readonly RunRecord[],
  pending: readonly PendingDelivery[],
): Promise<void> {
  for (const run of runs) await insertRunRow(client, run.jobId, run, run);
  for (const delivery of pending) {
    await client.query(
      `INSERT INTO cron_pending_deliveries (job_id, target, text, created_at, attempts, last_error)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [
        delivery.jobId,
        JSON.stringify(delivery.target),
        delivery.text,
        delivery.createdAt,
        delivery.attempts,
        delivery.lastError,
      ],
    );
  }
}
