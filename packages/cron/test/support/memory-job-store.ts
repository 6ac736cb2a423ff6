/**
 * An in-memory `JobStore` for the executor and tool tests: a seam double through the abstract
 * class, so a test can read back exactly what the code under test recorded without SQL.
 * Leases are honoured well enough for single-process tests; exactly-once is `SqliteJobStore`'s job.
 */
import type {
  ChatTarget,
  CronJob,
  JobPatch,
  NewJob,
  PendingDelivery,
  RunRecord,
} from '../../src/job.js';
import { type FinishRun, JobStore, type LeaseRequest } from '../../src/store/job-store.js';

interface Lease {
  owner: string;
  until: number;
}

function withPatch(job: CronJob, patch: JobPatch, now: number): CronJob {
  const { repeatTimes, model, enabledToolsets, workdir, ...rest } = patch;
  const next: Record<string, unknown> = { ...job, ...rest, updatedAt: now };
  if (repeatTimes !== undefined) next.repeat = { ...job.repeat, times: repeatTimes };
  // Null clears an override: drop the key so the job reads as "no override".
  for (const [key, value] of Object.entries({ model, enabledToolsets, workdir })) {
    if (value === null) delete next[key];
    else if (value !== undefined) next[key] = value;
  }
  return next as unknown as CronJob;
}

/** Jobs, runs and pending deliveries in maps. */
export class MemoryJobStore extends JobStore {
  readonly jobs = new Map<string, CronJob>();
  readonly runs: RunRecord[] = [];
  readonly pending = new Map<number, PendingDelivery>();
  readonly deliveryErrors: Array<{ jobId: string; error: string | null }> = [];
  private readonly leases = new Map<string, Lease>();
  private nextId = 1;
  private nextPendingId = 1;

  async create(job: NewJob, now: number): Promise<CronJob> {
    const id = `job${this.nextId++}`;
    const { repeatTimes, enabled, skills, ...rest } = job;
    const times = repeatTimes !== undefined ? repeatTimes : job.schedule.kind === 'once' ? 1 : null;
    const created: CronJob = {
      ...rest,
      id,
      skills: skills ?? [],
      repeat: { times, completed: 0 },
      enabled: enabled ?? true,
      lastRunAt: null,
      lastStatus: null,
      lastError: null,
      lastDeliveryError: null,
      failureStreak: 0,
      createdAt: now,
      updatedAt: now,
    };
    this.jobs.set(id, created);
    return created;
  }

  async get(id: string): Promise<CronJob | undefined> {
    return this.jobs.get(id);
  }

  async list(): Promise<CronJob[]> {
    return [...this.jobs.values()];
  }

  async update(id: string, patch: JobPatch, now: number): Promise<CronJob | undefined> {
    const job = this.jobs.get(id);
    if (!job) return undefined;
    const next = withPatch(job, patch, now);
    this.jobs.set(id, next);
    return next;
  }

  async remove(id: string): Promise<boolean> {
    return this.jobs.delete(id);
  }

  async claimDue(lease: LeaseRequest, limit: number): Promise<CronJob[]> {
    const due = [...this.jobs.values()]
      .filter((j) => j.enabled && j.nextRunAt !== null && j.nextRunAt <= lease.now)
      .sort((a, b) => (a.nextRunAt ?? 0) - (b.nextRunAt ?? 0));
    const claimed: CronJob[] = [];
    for (const job of due) {
      if (claimed.length >= limit) break;
      if (await this.claim(job.id, lease)) claimed.push(job);
    }
    return claimed;
  }

  async claim(id: string, lease: LeaseRequest): Promise<CronJob | undefined> {
    const job = this.jobs.get(id);
    if (!job) return undefined;
    const held = this.leases.get(id);
    if (held && held.owner !== lease.owner && held.until > lease.now) return undefined;
    this.leases.set(id, { owner: lease.owner, until: lease.now + lease.leaseMs });
    return job;
  }

  async renewLease(id: string, lease: LeaseRequest): Promise<boolean> {
    const held = this.leases.get(id);
    if (!held || held.owner !== lease.owner) return false;
    held.until = lease.now + lease.leaseMs;
    return true;
  }

  async releaseLease(id: string, owner: string): Promise<void> {
    if (this.leases.get(id)?.owner === owner) this.leases.delete(id);
  }

  async finishRun(id: string, run: FinishRun): Promise<CronJob | undefined> {
    const job = this.jobs.get(id);
    this.leases.delete(id);
    if (!job) return undefined;
    const { outcome } = run;
    this.runs.push({ ...outcome, jobId: id, startedAt: run.startedAt, finishedAt: run.finishedAt });
    const failed = outcome.status === 'error' || outcome.status === 'blocked';
    const next: CronJob = {
      ...job,
      lastRunAt: run.startedAt,
      lastStatus: outcome.status,
      lastError: outcome.error ?? null,
      failureStreak: failed ? job.failureStreak + 1 : 0,
      repeat: { ...job.repeat, completed: job.repeat.completed + 1 },
      nextRunAt: run.nextRunAt,
      enabled: run.enabled,
      updatedAt: run.finishedAt,
    };
    this.jobs.set(id, next);
    return next;
  }

  async listRuns(jobId: string, limit = 100): Promise<RunRecord[]> {
    return this.runs
      .filter((r) => r.jobId === jobId)
      .reverse()
      .slice(0, limit);
  }

  async addPendingDelivery(
    delivery: { readonly jobId: string; readonly target: ChatTarget; readonly text: string },
    now: number,
  ): Promise<PendingDelivery> {
    const pending: PendingDelivery = {
      id: this.nextPendingId++,
      ...delivery,
      createdAt: now,
      attempts: 0,
      lastError: null,
    };
    this.pending.set(pending.id, pending);
    return pending;
  }

  async listPendingDeliveries(): Promise<PendingDelivery[]> {
    return [...this.pending.values()];
  }

  async removePendingDelivery(id: number): Promise<void> {
    this.pending.delete(id);
  }

  async notePendingFailure(id: number, error: string): Promise<void> {
    const pending = this.pending.get(id);
    if (pending) {
      this.pending.set(id, { ...pending, attempts: pending.attempts + 1, lastError: error });
    }
  }

  async setDeliveryError(jobId: string, error: string | null): Promise<void> {
    this.deliveryErrors.push({ jobId, error });
    const job = this.jobs.get(jobId);
    if (job) this.jobs.set(jobId, { ...job, lastDeliveryError: error });
  }

  async close(): Promise<void> {}
}
