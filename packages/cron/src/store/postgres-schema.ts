/**
 * The cron tables on PostgreSQL, as migrations of the `cron` component (recorded in
 * `hermes_migrations` by `PostgresDatabase.migrate`). Columns mirror the SQLite tables in
 * `schema.ts` so the row mapping in `job-row.ts` serves both: JSON stays TEXT (parsed with zod on
 * the way out, so a hand-edited row is reported instead of crashing the JSON type check at write
 * time), epoch milliseconds are BIGINT (read as numbers by `PostgresDatabase`). `enabled` is a
 * BOOLEAN, turned into SQLite's 0/1 when a row is read.
 */
import type { PostgresMigration } from '@hermes/state/postgres';

/** Version 1: jobs, their runs and pending deliveries. */
const CREATE_TABLES = `
CREATE TABLE cron_jobs (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  prompt TEXT NOT NULL,
  schedule TEXT NOT NULL,
  schedule_text TEXT NOT NULL,
  repeat_times INTEGER,
  repeat_completed INTEGER NOT NULL DEFAULT 0,
  deliver TEXT NOT NULL,
  origin TEXT,
  skills TEXT NOT NULL DEFAULT '[]',
  model TEXT,
  enabled_toolsets TEXT,
  workdir TEXT,
  enabled BOOLEAN NOT NULL DEFAULT TRUE,
  next_run_at BIGINT,
  last_run_at BIGINT,
  last_status TEXT,
  last_error TEXT,
  last_delivery_error TEXT,
  failure_streak INTEGER NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  lease_owner TEXT,
  lease_until BIGINT,
  -- Insertion order, the tie-breaker SQLite's rowid gives for jobs created in the same millisecond.
  seq BIGINT GENERATED ALWAYS AS IDENTITY
);
-- Only enabled jobs with a next run are ever due: the claim query scans this index alone.
CREATE INDEX cron_jobs_due ON cron_jobs (next_run_at, created_at, seq)
  WHERE enabled AND next_run_at IS NOT NULL;
CREATE INDEX cron_jobs_created ON cron_jobs (created_at, seq);
CREATE TABLE cron_runs (
  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  job_id TEXT NOT NULL,
  started_at BIGINT NOT NULL,
  finished_at BIGINT NOT NULL,
  status TEXT NOT NULL,
  error TEXT,
  output TEXT NOT NULL,
  output_path TEXT,
  delivery_error TEXT,
  session_id TEXT
);
CREATE INDEX cron_runs_job ON cron_runs (job_id, id);
CREATE TABLE cron_pending_deliveries (
  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  job_id TEXT NOT NULL,
  target TEXT NOT NULL,
  text TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  last_error TEXT
);
CREATE INDEX cron_pending_deliveries_job ON cron_pending_deliveries (job_id);
`;

/** The cron tables' migrations, applied in version order, each once. */
export const POSTGRES_JOB_MIGRATIONS: readonly PostgresMigration[] = [
  { version: 1, name: 'jobs, runs and pending deliveries', sql: CREATE_TABLES },
];
