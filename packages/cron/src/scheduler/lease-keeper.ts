/** Keeps a running job's lease alive: renews it every `leaseMs / 3` until stopped. */
import type { JobStore } from '../store/job-store.js';
import type { CronSchedulerLog } from './scheduler-options.js';

/** Renews one job's lease on a real-time timer (the lease itself is in the store's clock). */
export class LeaseKeeper {
  private readonly timer: NodeJS.Timeout;
  private renewing = false;
  private lost = false;

  constructor(
    private readonly store: JobStore,
    private readonly jobId: string,
    private readonly owner: string,
    private readonly leaseMs: number,
    private readonly clock: () => number,
    private readonly log: CronSchedulerLog,
  ) {
    // A third of the lease: two renewals may fail (a busy database) before the lease lapses.
    this.timer = setInterval(() => void this.renew(), Math.max(1, Math.floor(leaseMs / 3)));
    this.timer.unref();
  }

  /** Stops renewing; the lease then lasts until `finishRun` frees it or it expires. */
  stop(): void {
    clearInterval(this.timer);
  }

  private async renew(): Promise<void> {
    if (this.renewing || this.lost) return;
    this.renewing = true;
    try {
      const lease = { owner: this.owner, now: this.clock(), leaseMs: this.leaseMs };
      if (!(await this.store.renewLease(this.jobId, lease))) {
        // Another owner took the job after our lease lapsed; our result will be recorded in
        // the history but will not overwrite the job (see JobStore.finishRun).
        this.lost = true;
        this.log.warn('cron: lost the lease of a running job', {
          job: this.jobId,
          owner: this.owner,
        });
      }
    } catch (error) {
      this.log.warn('cron: could not renew a lease', { job: this.jobId, error: String(error) });
    } finally {
      this.renewing = false;
    }
  }
}
