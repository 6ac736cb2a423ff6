/** A job's state after a run: whether it stays enabled, and when it runs next. */
import type { CronJob } from '../job.js';
import { nextRunAfter } from '../schedule/next-run.js';

/** What `finishRun` records besides the outcome. */
export interface NextJobState {
  readonly enabled: boolean;
  readonly nextRunAt: number | null;
}

/**
 * The state of `job` after a run that finished at `finishedAt`:
 * - a one-shot, or a job whose `repeat.times` this run used up → disabled, no next run;
 * - a paused job (run on demand) → still paused, its `nextRunAt` untouched;
 * - otherwise the schedule's first run strictly after `finishedAt`, so a backlog of missed
 *   interval runs runs once and the next one counts from now (no catch-up storm).
 * Throws when the schedule cannot be evaluated (the caller disables the job and says why).
 */
export function nextJobState(
  job: CronJob,
  finishedAt: number,
  timezone: string | undefined,
): NextJobState {
  const completed = job.repeat.completed + 1;
  const usedUp = job.repeat.times !== null && completed >= job.repeat.times;
  if (job.schedule.kind === 'once' || usedUp) return { enabled: false, nextRunAt: null };
  if (!job.enabled) return { enabled: false, nextRunAt: job.nextRunAt };
  const nextRunAt = nextRunAfter(job.schedule, finishedAt, { timezone });
  return { enabled: nextRunAt !== null, nextRunAt };
}
