/** Options and defaults of {@link CronScheduler}. */
import type { JobStore } from '../store/job-store.js';
import type { JobExecutor } from './job-executor.js';

/** `cron.max_parallel_jobs`: jobs one scheduler runs at once. */
export const DEFAULT_MAX_PARALLEL_JOBS = 3;
/** How long a claim lasts unless renewed (renewed every third of it while a run lasts). */
export const DEFAULT_LEASE_MS = 300_000;
/** How often `start()` ticks. */
export const DEFAULT_TICK_MS = 60_000;
/** How long `stop()` waits before aborting running jobs, and again before giving up on them. */
export const DEFAULT_STOP_GRACE_MS = 10_000;

/** Where the scheduler reports what it could not do (a lost lease, a failed record). */
export interface CronSchedulerLog {
  warn(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
}

/** Options of `CronScheduler`. */
export interface CronSchedulerOptions {
  readonly store: JobStore;
  readonly executor: JobExecutor;
  /** Unique to this process; default `<host>:<pid>:<random>`. */
  readonly owner?: string;
  /** Milliseconds since the epoch; default `Date.now`. Every time in the logic comes from it. */
  readonly clock?: () => number;
  /** Default {@link DEFAULT_MAX_PARALLEL_JOBS}. */
  readonly maxParallel?: number;
  /** Default {@link DEFAULT_LEASE_MS}. */
  readonly leaseMs?: number;
  /** IANA zone of cron expressions; default the system zone. */
  readonly timezone?: string | undefined;
  readonly log?: CronSchedulerLog;
}

/** Options of `CronScheduler.stop`. */
export interface StopOptions {
  /** Default {@link DEFAULT_STOP_GRACE_MS}. */
  readonly graceMs?: number;
}
