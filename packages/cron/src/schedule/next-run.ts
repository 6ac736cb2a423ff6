/** When a schedule runs next, and how to say a schedule in words. */
import type { Schedule } from '../job.js';
import { nextCronRun } from './cron-expression.js';
import { assertTimezone } from './timezone.js';

/** Options of {@link nextRunAfter}. */
export interface NextRunOptions {
  /** IANA zone for cron expressions; default the system zone. */
  readonly timezone?: string | undefined;
}

/**
 * The first run of `schedule` strictly after `after` (ms since the epoch), or null when there is
 * none: an interval runs `after + minutes`; a cron expression at croner's next match in the
 * timezone (DST: a fixed time skipped by spring-forward runs after the gap, one repeated by
 * fall-back runs once; wildcard hours run in every real hour); a one-shot at `runAt` while
 * `runAt > after`. Throws HermesError `cron.bad_timezone` for an unknown zone.
 */
export function nextRunAfter(
  schedule: Schedule,
  after: number,
  options: NextRunOptions = {},
): number | null {
  switch (schedule.kind) {
    case 'interval':
      return after + schedule.minutes * 60_000;
    case 'once':
      return schedule.runAt > after ? schedule.runAt : null;
    case 'cron':
      assertTimezone(options.timezone);
      return nextCronRun(schedule.expr, after, options.timezone);
  }
}

/** The schedule in words: `every 120 min`, `cron 0 9 * * 1-5`, `once at 2026-05-04T09:00:00.000Z`. */
export function describeSchedule(schedule: Schedule): string {
  switch (schedule.kind) {
    case 'interval':
      return `every ${schedule.minutes} min`;
    case 'cron':
      return `cron ${schedule.expr}`;
    case 'once':
      return `once at ${new Date(schedule.runAt).toISOString()}`;
  }
}
