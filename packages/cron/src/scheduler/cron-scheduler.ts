/**
 * The scheduler: each tick claims due jobs through the store's leases (so two processes on one
 * store never run a job twice), runs at most `maxParallel` at once through the `JobExecutor`,
 * keeps their leases alive while they run, and records each run with the job's next state.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { HermesError } from '@hermes/protocol';
import type { CronJob, RunOutcome, RunRecord } from '../job.js';
import { assertTimezone } from '../schedule/timezone.js';
import type { JobStore } from '../store/job-store.js';
import type { JobExecutor } from './job-executor.js';
import { LeaseKeeper } from './lease-keeper.js';
import { type NextJobState, nextJobState } from './next-state.js';
import {
  type CronSchedulerLog,
  type CronSchedulerOptions,
  DEFAULT_LEASE_MS,
  DEFAULT_MAX_PARALLEL_JOBS,
  DEFAULT_STOP_GRACE_MS,
  DEFAULT_TICK_MS,
  type StopOptions,
} from './scheduler-options.js';

/** One run in flight. */
interface ActiveRun {
  readonly jobId: string;
  readonly controller: AbortController;
  readonly keeper: LeaseKeeper;
  readonly done: Promise<RunRecord | undefined>;
}

const SILENT_LOG: CronSchedulerLog = { warn: () => {}, info: () => {} };

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Resolves true when `promise` settles within `ms`, false otherwise. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs due cron jobs exactly once across every scheduler sharing a store. */
export class CronScheduler {
  private readonly store: JobStore;
  private readonly executor: JobExecutor;
  private readonly owner: string;
  private readonly clock: () => number;
  private readonly maxParallel: number;
  private readonly leaseMs: number;
  private readonly timezone: string | undefined;
  private readonly log: CronSchedulerLog;
  private readonly active = new Set<ActiveRun>();
  private ticking: Promise<RunRecord[]> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopping = false;

  constructor(options: CronSchedulerOptions) {
    this.store = options.store;
    this.executor = options.executor;
    this.owner = options.owner ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
    this.clock = options.clock ?? Date.now;
    this.maxParallel = options.maxParallel ?? DEFAULT_MAX_PARALLEL_JOBS;
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.timezone = options.timezone;
    this.log = options.log ?? SILENT_LOG;
    if (!Number.isInteger(this.maxParallel) || this.maxParallel < 1) {
      throw new HermesError(
        'cron.bad_config',
        `cron.max_parallel_jobs must be a whole number ≥ 1, not ${this.maxParallel}`,
      );
    }
    if (!(this.leaseMs > 0)) {
      throw new HermesError(
        'cron.bad_config',
        `the lease must be longer than 0 ms, not ${this.leaseMs}`,
      );
    }
    assertTimezone(this.timezone);
  }

  /** Jobs this scheduler is running now (ticks and `runNow` together). */
  get running(): number {
    return this.active.size;
  }

  /**
   * Claims due jobs (up to `maxParallel` running at once, claiming more as runs finish), runs
   * them, and resolves with their records once every run it started is recorded. Never rejects:
   * a store failure is logged and ends the tick. While another tick of this scheduler is in
   * flight, or after `stop()`, claims nothing and resolves `[]`.
   */
  async tick(): Promise<RunRecord[]> {
    if (this.stopping || this.ticking) return [];
    this.ticking = this.drain();
    try {
      return await this.ticking;
    } finally {
      this.ticking = undefined;
    }
  }

  /**
   * Claims job `id` whatever its schedule (a paused job too) and runs it in the foreground.
   * Undefined when there is no such job, another owner's lease holds, or the scheduler stopped.
   */
  async runNow(id: string): Promise<RunRecord | undefined> {
    if (this.stopping) return undefined;
    const job = await this.store.claim(id, this.lease());
    if (!job) return undefined;
    if (this.stopping) {
      await this.release(job.id);
      return undefined;
    }
    return this.launch(job).done;
  }

  /**
   * Ticks now and then every `intervalMs` (timer unref'd: it never keeps the process alive).
   * A tick still running when the next is due makes that one skip, never overlap.
   */
  start(intervalMs: number = DEFAULT_TICK_MS): void {
    if (this.timer) return;
    this.stopping = false;
    const fire = (): void => {
      if (this.ticking) {
        this.log.info('cron: tick skipped, the previous one is still running', {
          running: this.active.size,
        });
        return;
      }
      void this.tick();
    };
    this.timer = setInterval(fire, intervalMs);
    this.timer.unref();
    fire();
  }

  /**
   * Stops ticking and claiming. Running jobs get `graceMs` to finish, then their signals are
   * aborted and they get `graceMs` more to record. A job still running after that is left to
   * its executor: its lease is no longer renewed, so it expires and another process can run the
   * job, and nothing else is released. Resolves in at most about `2 × graceMs`.
   */
  async stop(options: StopOptions = {}): Promise<void> {
    const graceMs = options.graceMs ?? DEFAULT_STOP_GRACE_MS;
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    const all = () => Promise.all([...this.active].map((run) => run.done));
    if (await settlesWithin(all(), graceMs)) return;
    for (const run of this.active) {
      run.controller.abort(new HermesError('cron.stopped', 'the scheduler is stopping'));
    }
    if (await settlesWithin(all(), graceMs)) return;
    for (const run of this.active) run.keeper.stop();
    this.log.warn('cron: stopped with jobs still running; their leases will expire', {
      jobs: [...this.active].map((run) => run.jobId),
    });
  }

  /** The tick's loop: claim into free slots, wait for a run to end, repeat until idle. */
  private async drain(): Promise<RunRecord[]> {
    const records: RunRecord[] = [];
    const mine = new Set<Promise<unknown>>();
    const started = new Set<string>();
    for (;;) {
      const free = this.maxParallel - this.active.size;
      const claimed = !this.stopping && free > 0 ? await this.claimDue(free) : [];
      for (const job of claimed) {
        // Stopping meanwhile, or due again within this tick: give the claim back.
        if (this.stopping || started.has(job.id)) {
          await this.release(job.id);
          continue;
        }
        started.add(job.id);
        const done = this.launch(job).done.then((record) => {
          if (record) records.push(record);
          mine.delete(done);
        });
        mine.add(done);
      }
      if (mine.size === 0) return records;
      await Promise.race(mine);
    }
  }

  private async claimDue(limit: number): Promise<CronJob[]> {
    try {
      return await this.store.claimDue(this.lease(), limit);
    } catch (error) {
      this.log.warn('cron: could not claim due jobs', { error: describeError(error) });
      return [];
    }
  }

  private lease() {
    return { owner: this.owner, now: this.clock(), leaseMs: this.leaseMs };
  }

  private async release(jobId: string): Promise<void> {
    try {
      await this.store.releaseLease(jobId, this.owner);
    } catch (error) {
      this.log.warn('cron: could not release a lease', { job: jobId, error: describeError(error) });
    }
  }

  /** Starts a claimed job's run and tracks it until it is recorded. */
  private launch(job: CronJob): ActiveRun {
    const controller = new AbortController();
    const keeper = new LeaseKeeper(
      this.store,
      job.id,
      this.owner,
      this.leaseMs,
      this.clock,
      this.log,
    );
    const run: ActiveRun = {
      jobId: job.id,
      controller,
      keeper,
      done: this.runJob(job, controller.signal).finally(() => {
        keeper.stop();
        this.active.delete(run);
      }),
    };
    this.active.add(run);
    return run;
  }

  /** Runs and records one job. Never rejects. */
  private async runJob(job: CronJob, signal: AbortSignal): Promise<RunRecord> {
    const startedAt = this.clock();
    const outcome = await this.execute(job, signal);
    const finishedAt = this.clock();
    await this.record(job, startedAt, finishedAt, outcome);
    return { ...outcome, jobId: job.id, startedAt, finishedAt };
  }

  private async execute(job: CronJob, signal: AbortSignal): Promise<RunOutcome> {
    try {
      return await this.executor.execute(job, signal);
    } catch (error) {
      // Executors should not throw; one that does is a failed run, never a crashed tick.
      return { status: 'error', output: '', error: `the run failed: ${describeError(error)}` };
    }
  }

  private async record(
    job: CronJob,
    startedAt: number,
    finishedAt: number,
    outcome: RunOutcome,
  ): Promise<void> {
    const next = await this.nextState(job, finishedAt);
    try {
      const updated = await this.store.finishRun(job.id, {
        owner: this.owner,
        startedAt,
        finishedAt,
        outcome,
        ...next,
      });
      if (!updated) this.log.info('cron: job removed while it ran', { job: job.id });
    } catch (error) {
      // The lease expires on its own, and the job then runs again: better than never.
      this.log.warn('cron: could not record a run', { job: job.id, error: describeError(error) });
    }
  }

  /** The next state from the job as stored now: a pause or edit made during the run wins. */
  private async nextState(job: CronJob, finishedAt: number): Promise<NextJobState> {
    let current = job;
    try {
      current = (await this.store.get(job.id)) ?? job;
    } catch {
      // An unreadable row: fall back to the state the run started from.
    }
    try {
      return nextJobState(current, finishedAt, this.timezone);
    } catch (error) {
      this.log.warn('cron: cannot compute the next run; pausing the job', {
        job: job.id,
        error: describeError(error),
      });
      return { enabled: false, nextRunAt: null };
    }
  }
}
