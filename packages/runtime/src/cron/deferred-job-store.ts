/**
 * A {@link JobStore} that opens `HERMES_HOME/state.db`'s job tables at its first use. Every chat
 * agent the CLI builds offers `cronjob`; most never call it, so they should not open (or
 * create) the cron tables for nothing.
 */
import {
  type ChatTarget,
  type CronJob,
  type FinishRun,
  type JobPatch,
  JobStore,
  type LeaseRequest,
  type NewJob,
  openSqliteJobStore,
  type PendingDelivery,
  type RunRecord,
} from '@hermes/cron';

/** Opens the SQLite job store of `hermesHome` on the first call, and closes it if it did. */
export class DeferredJobStore extends JobStore {
  readonly #open: () => JobStore;
  #store: JobStore | undefined;
  #closed = false;

  /** `open` defaults to `openSqliteJobStore(hermesHome)`. */
  constructor(hermesHome: string, open: () => JobStore = () => openSqliteJobStore(hermesHome)) {
    super();
    this.#open = open;
  }

  /** Whether the store was opened (a call was made). */
  get opened(): boolean {
    return this.#store !== undefined;
  }

  /** The opened store (a call on a closed one rejects, as the SQLite store's would). */
  #inner(): JobStore {
    if (this.#closed) throw new Error('the job store is closed');
    this.#store ??= this.#open();
    return this.#store;
  }

  async create(job: NewJob, now: number): Promise<CronJob> {
    return this.#inner().create(job, now);
  }
  async get(id: string): Promise<CronJob | undefined> {
    return this.#inner().get(id);
  }
  async list(): Promise<CronJob[]> {
    return this.#inner().list();
  }
  async update(id: string, patch: JobPatch, now: number): Promise<CronJob | undefined> {
    return this.#inner().update(id, patch, now);
  }
  async remove(id: string): Promise<boolean> {
    return this.#inner().remove(id);
  }
  async claimDue(lease: LeaseRequest, limit: number): Promise<CronJob[]> {
    return this.#inner().claimDue(lease, limit);
  }
  async claim(id: string, lease: LeaseRequest): Promise<CronJob | undefined> {
    return this.#inner().claim(id, lease);
  }
  async renewLease(id: string, lease: LeaseRequest): Promise<boolean> {
    return this.#inner().renewLease(id, lease);
  }
  async releaseLease(id: string, owner: string): Promise<void> {
    return this.#inner().releaseLease(id, owner);
  }
  async finishRun(id: string, run: FinishRun): Promise<CronJob | undefined> {
    return this.#inner().finishRun(id, run);
  }
  async listRuns(jobId: string, limit?: number): Promise<RunRecord[]> {
    return this.#inner().listRuns(jobId, limit);
  }
  async addPendingDelivery(
    delivery: { readonly jobId: string; readonly target: ChatTarget; readonly text: string },
    now: number,
  ): Promise<PendingDelivery> {
    return this.#inner().addPendingDelivery(delivery, now);
  }
  async listPendingDeliveries(): Promise<PendingDelivery[]> {
    return this.#inner().listPendingDeliveries();
  }
  async removePendingDelivery(id: number): Promise<void> {
    return this.#inner().removePendingDelivery(id);
  }
  async notePendingFailure(id: number, error: string): Promise<void> {
    return this.#inner().notePendingFailure(id, error);
  }
  async setDeliveryError(jobId: string, error: string | null): Promise<void> {
    return this.#inner().setDeliveryError(jobId, error);
  }

  /** Closes the store if it was opened. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#store?.close();
  }
}
