/**
 * The `cron:` section of config.yaml: how many jobs run at once, the time zone cron expressions
 * are read in, how long one run may take, how many output files a job keeps, and how often the
 * gateway's clock ticks. Validated here (snake_case), surfaced as `config.cron` (camelCase).
 */
import { z } from 'zod';

/** The resolved `cron:` section. */
export interface CronSettings {
  /** Jobs one tick runs at once (`cron.max_parallel_jobs`). */
  readonly maxParallelJobs: number;
  /**
   * The IANA time zone cron expressions are read in (`cron.timezone`); undefined means the
   * system's. Left unresolved on purpose: the first `Intl` time-zone lookup of a process loads
   * ICU's zone data (~40 ms), which every `hermes chat` would pay at config load.
   */
  readonly timezone: string | undefined;
  /** How long one run may take before it is aborted and recorded as a failure. */
  readonly jobTimeoutSeconds: number;
  /** Output files kept per job under `HERMES_HOME/cron/output/<job>/`. */
  readonly keepOutputs: number;
  /** How often the gateway's clock looks for due jobs. */
  readonly tickSeconds: number;
}

/** The shortest tick accepted: the clock reads the job table each time. */
export const MIN_CRON_TICK_SECONDS = 10;

/** The defaults of every `cron:` key but `timezone` (the system zone, read when resolving). */
export const CRON_DEFAULTS = Object.freeze({
  maxParallelJobs: 3,
  jobTimeoutSeconds: 1_800,
  keepOutputs: 50,
  tickSeconds: 60,
});

/** Whether `name` is a time zone this Node knows (an IANA name such as `Europe/Berlin`). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const timezone = z.string().superRefine((value, ctx) => {
  if (!isTimeZone(value)) {
    ctx.addIssue({
      code: 'custom',
      message: `expected an IANA time zone name such as Europe/Berlin, America/New_York or UTC, got '${value}'`,
    });
  }
});

/** `cron:` as written. Unknown keys pass here and are reported by the unknown-key pass. */
export const CronSectionSchema = z.looseObject({
  max_parallel_jobs: z.number().int().positive().max(64).optional(),
  timezone: timezone.optional(),
  job_timeout_seconds: z.number().positive().optional(),
  keep_outputs: z.number().int().positive().optional(),
  tick_seconds: z
    .number()
    .min(MIN_CRON_TICK_SECONDS, `expected at least ${MIN_CRON_TICK_SECONDS} seconds`)
    .optional(),
});
/** `cron:` after validation. */
export type CronSection = z.output<typeof CronSectionSchema>;

/** The section with defaults applied (absent or `null`: all defaults). */
export function resolveCronSettings(section: CronSection | null | undefined): CronSettings {
  return {
    maxParallelJobs: section?.max_parallel_jobs ?? CRON_DEFAULTS.maxParallelJobs,
    timezone: section?.timezone,
    jobTimeoutSeconds: section?.job_timeout_seconds ?? CRON_DEFAULTS.jobTimeoutSeconds,
    keepOutputs: section?.keep_outputs ?? CRON_DEFAULTS.keepOutputs,
    tickSeconds: section?.tick_seconds ?? CRON_DEFAULTS.tickSeconds,
  };
}

/** `config.cron`, or the defaults for a configuration built by hand without one. */
export function cronSettingsOf(config: { readonly cron?: CronSettings }): CronSettings {
  return config.cron ?? resolveCronSettings(undefined);
}
