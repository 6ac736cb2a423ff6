/**
 * The job store seam: jobs, their run history, leases and pending deliveries. SQLite in
 * `state.db` today (`SqliteJobStore`); the same contract can sit on PostgreSQL later, so every
 * method is async and every claim is one atomic step in the store, never read-then-write in the
 * caller.
 */
import type {
  ChatTarget,
  CronJob,
  JobPatch,
  NewJob,
  PendingDelivery,
  RunOutcome,
  RunRecord,
} from '../job.js';

/** Who holds a claim, and until when. */
export interface LeaseRequest {
  /** A name unique to the claiming process (host, pid, random suffix). */
  readonly owner: string;
  /** Milliseconds since the epoch, as the caller's clock says. */
  readonly now: number;
  /** How long the claim lasts unless renewed. */
  readonly leaseMs: number;
}

/** What `finishRun` records besides the outcome: the job's next state, computed by the scheduler. */
export interface FinishRun {
  readonly owner: string;
  readonly startedAt: number;
  readonly finishedAt: number;
  readonly outcome: RunOutcome;
  /** Null when the job will not run again. */
  readonly nextRunAt: number | null;
  /** False when a one-shot ran or `repeat.times` is used up. */
  readonly enabled: boolean;
}

/** Storage for cron jobs. */
export abstract class JobStore {
  /** Stores a new job. */
  abstract create(job: NewJob, now: number): Promise<CronJob>;
  /** The job with `id`, or undefined. */
  abstract get(id: string): Promise<CronJob | undefined>;
  /** Every job, oldest first. */
  abstract list(): Promise<CronJob[]>;
  /** Changes a job; undefined when there is none with `id`. */
  abstract update(id: string, patch: JobPatch, now: number): Promise<CronJob | undefined>;
  /** Deletes a job with its history; false when there was none. */
  abstract remove(id: string): Promise<boolean>;

  /**
   * Atomically claims up to `limit` enabled jobs whose `nextRunAt <= now` and whose lease is free
   * or expired, oldest due first. Two stores on one database never return the same job while a
   * lease holds.
   */
  abstract claimDue(lease: LeaseRequest, limit: number): Promise<CronJob[]>;
  /**
   * Claims one job regardless of its schedule (`run now`); undefined when it does not exist or
   * another owner's lease holds. A disabled job can be claimed (a paused job still runs on demand).
   */
  abstract claim(id: string, lease: LeaseRequest): Promise<CronJob | undefined>;
  /** Extends `owner`'s lease; false when the lease is no longer theirs. */
  abstract renewLease(id: string, lease: LeaseRequest): Promise<boolean>;
  /** Drops `owner`'s lease without recording a run (a run that never started). */
  abstract releaseLease(id: string, owner: string): Promise<void>;
  /**
   * Records a run: appends it to the history, sets `last*`, the failure streak (reset by `ok` and
   * `silent`, incremented by `error` and `blocked`), `repeat.completed`, `nextRunAt`, `enabled`,
   * and releases the lease. Returns the updated job; undefined when it was removed meanwhile.
   */
  abstract finishRun(id: string, run: FinishRun): Promise<CronJob | undefined>;
  /** A job's runs, newest first. */
  abstract listRuns(jobId: string, limit?: number): Promise<RunRecord[]>;

  /** Queues a delivery for the next gateway start. */
  abstract addPendingDelivery(
    delivery: { readonly jobId: string; readonly target: ChatTarget; readonly text: string },
    now: number,
  ): Promise<PendingDelivery>;
  /** Deliveries still waiting, oldest first. */
  abstract listPendingDeliveries(): Promise<PendingDelivery[]>;
  /** Removes a delivered (or abandoned) pending delivery. */
  abstract removePendingDelivery(id: number): Promise<void>;
  /** Counts a failed attempt to send a pending delivery. */
  abstract notePendingFailure(id: number, error: string): Promise<void>;
  /** Sets `lastDeliveryError` (null when a later delivery went through). */
  abstract setDeliveryError(jobId: string, error: string | null): Promise<void>;

  /** Closes the store. Idempotent. */
  abstract close(): Promise<void>;
}
