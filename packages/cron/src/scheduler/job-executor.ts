/** What the scheduler calls to run a claimed job. `CronJobExecutor` is the real one. */
import type { CronJob, RunOutcome } from '../job.js';

/** Runs one claimed job to an outcome. Must not throw: failures are outcomes. */
export interface JobExecutor {
  execute(job: CronJob, signal: AbortSignal): Promise<RunOutcome>;
}
