/**
 * The cron tables in `state.db`. The file is shared with `@hermes/state`, whose migrations own
 * `PRAGMA user_version`, so these tables are created with `IF NOT EXISTS` on every open and the
 * version is never read or written here. A later column is added the same way: probe
 * `pragma table_info`, then `ALTER TABLE ... ADD COLUMN`.
 */

/** Statements run on every open; each is idempotent. */
export const CRON_SCHEMA: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS cron_jobs (
    id TEXT PRIMARY KEY NOT NULL,
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
    enabled INTEGER NOT NULL DEFAULT 1,
    next_run_at INTEGER,
    last_run_at INTEGER,
    last_status TEXT,
    last_error TEXT,
    last_delivery_error TEXT,
    failure_streak INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    lease_owner TEXT,
    lease_until INTEGER
  )`,
  'CREATE INDEX IF NOT EXISTS cron_jobs_due ON cron_jobs(enabled, next_run_at)',
  `CREATE TABLE IF NOT EXISTS cron_runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    job_id TEXT NOT NULL,
    started_at INTEGER NOT NULL,
    finished_at INTEGER NOT NULL,
    status TEXT NOT NULL,
    error TEXT,
    output TEXT NOT NULL,
    output_path TEXT,
    delivery_error TEXT,
    session_id TEXT
  )`,
  'CREATE INDEX IF NOT EXISTS cron_runs_job ON cron_runs(job_id, id)',
  `CREATE TABLE IF NOT EXISTS cron_pending_deliveries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    job_id TEXT NOT NULL,
    target TEXT NOT NULL,
    text TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    last_error TEXT
  )`,
];

/** Runs kept per job; older ones are deleted when a run is recorded. */
export const RUNS_KEPT_PER_JOB = 200;
