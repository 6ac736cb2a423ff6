/**
 * A `JobStore` that forwards every call to another one, so a test can watch or alter one method
 * of any backend (SQLite or PostgreSQL) by overriding it.
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

export class DelegatingJobStore extends JobStore {
  constructor(protected readonly inner: JobStore) {
    super();
  }
  create(job: NewJob, now: number): Promise<CronJob> {
    return this.inner.create(job, now);
  }
  get(id: string): Promise<CronJob | undefined> {
    return this.inner.get(id);
  }
  list(): Promise<CronJob[]> {
    return this.inner.list();
  }
  update(id: string, patch: JobPatch, now: number): Promise<CronJob | undefined> {
    return this.inner.update(id, patch, now);
  }
  remove(id: string): Promise<boolean> {
    return this.inner.remove(id);
  }
  claimDue(lease: LeaseRequest, limit: number): Promise<CronJob[]> {
    return this.inner.claimDue(lease, limit);
  }
  claim(id: string, lease: LeaseRequest): Promise<CronJob | undefined> {
    return this.inner.claim(id, lease);
  }
  renewLease(id: string, lease: LeaseRequest): Promise<boolean> {
    return this.inner.renewLease(id, lease);
  }
  releaseLease(id: string, owner: string): Promise<void> {
    return this.inner.releaseLease(id, owner);
  }
  finishRun(id: string, run: FinishRun): Promise<CronJob | undefined> {
    return this.inner.finishRun(id, run);
  }
  listRuns(jobId: string, limit?: number): Promise<RunRecord[]> {
    return this.inner.listRuns(jobId, limit);
  }
  addPendingDelivery(
    delivery: { readonly jobId: string; readonly target: ChatTarget; readonly text: string },
    now: number,
  ): Promise<PendingDelivery> {
    return this.inner.addPendingDelivery(delivery, now);
  }
  listPendingDeliveries(): Promise<PendingDelivery[]> {
    return this.inner.listPendingDeliveries();
  }
  removePendingDelivery(id: number): Promise<void> {
    return this.inner.removePendingDelivery(id);
  }
  notePendingFailure(id: number, error: string): Promise<void> {
    return this.inner.notePendingFailure(id, error);
  }
  setDeliveryError(jobId: string, error: string | null): Promise<void> {
    return this.inner.setDeliveryError(jobId, error);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}
