/**
 * The delivery used when no gateway runs (`hermes cron tick`, `hermes cron run`): it records the
 * text as a pending delivery in the job store, and the next gateway start sends it
 * (`deliverPendingJobs`).
 */
import type { ChatTarget, CronJob } from '../job.js';
import type { JobStore } from '../store/job-store.js';
import { CronDelivery } from './seams.js';

/** A {@link CronDelivery} that only queues. */
export class QueueingCronDelivery extends CronDelivery {
  /** Nothing is sent now: the executor reports the answer as queued. */
  readonly live = false;
  private readonly store: JobStore;
  private readonly clock: () => number;

  constructor(store: JobStore, clock: () => number = Date.now) {
    super();
    this.store = store;
    this.clock = clock;
  }

  /** Records `text` for `target` as a pending delivery of `job`. */
  async deliver(target: ChatTarget, text: string, job: CronJob): Promise<void> {
    await this.store.addPendingDelivery({ jobId: job.id, target, text }, this.clock());
  }
}
