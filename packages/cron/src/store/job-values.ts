/** Column values for inserting a job and for applying a patch to one. */
import type { CronJob, JobPatch, NewJob } from '../job.js';

type SqlValue = string | number | null;

const json = (value: unknown): string => JSON.stringify(value);

/** Every column of a new `cron_jobs` row except `id`. */
export function jobInsertValues(job: NewJob, now: number): Record<string, SqlValue> {
  const repeatTimes =
    job.repeatTimes !== undefined ? job.repeatTimes : job.schedule.kind === 'once' ? 1 : null;
  return {
    name: job.name,
    prompt: job.prompt,
    schedule: json(job.schedule),
    schedule_text: job.scheduleText,
    repeat_times: repeatTimes,
    repeat_completed: 0,
    deliver: json(job.deliver),
    origin: job.origin === undefined ? null : json(job.origin),
    skills: json(job.skills ?? []),
    model: job.model ?? null,
    enabled_toolsets: job.enabledToolsets === undefined ? null : json(job.enabledToolsets),
    workdir: job.workdir ?? null,
    enabled: job.enabled === false ? 0 : 1,
    next_run_at: job.nextRunAt,
    failure_streak: 0,
    created_at: now,
    updated_at: now,
  };
}

/**
 * Every column of the `cron_jobs` row of `job` as it stands, its id and run state included and
 * no lease: a job copied from another store (`hermes storage copy`).
 */
export function storedJobValues(job: CronJob): Record<string, SqlValue> {
  return {
    id: job.id,
    name: job.name,
    prompt: job.prompt,
    schedule: json(job.schedule),
    schedule_text: job.scheduleText,
    repeat_times: job.repeat.times,
    repeat_completed: job.repeat.completed,
    deliver: json(job.deliver),
    origin: job.origin === undefined ? null : json(job.origin),
    skills: json(job.skills),
    model: job.model ?? null,
    enabled_toolsets: job.enabledToolsets === undefined ? null : json(job.enabledToolsets),
    workdir: job.workdir ?? null,
    enabled: job.enabled ? 1 : 0,
    next_run_at: job.nextRunAt,
    last_run_at: job.lastRunAt,
    last_status: job.lastStatus,
    last_error: job.lastError,
    last_delivery_error: job.lastDeliveryError,
    failure_streak: job.failureStreak,
    created_at: job.createdAt,
    updated_at: job.updatedAt,
  };
}

/** How each patch field becomes a column value (`null` clears an override). */
const PATCH_COLUMNS: {
  readonly [K in keyof JobPatch]-?: (value: NonNullable<JobPatch[K]> | null) => [string, SqlValue];
} = {
  name: (v) => ['name', v],
  prompt: (v) => ['prompt', v],
  schedule: (v) => ['schedule', json(v)],
  scheduleText: (v) => ['schedule_text', v],
  repeatTimes: (v) => ['repeat_times', v],
  deliver: (v) => ['deliver', json(v)],
  skills: (v) => ['skills', json(v ?? [])],
  model: (v) => ['model', v],
  enabledToolsets: (v) => ['enabled_toolsets', v === null ? null : json(v)],
  workdir: (v) => ['workdir', v],
  enabled: (v) => ['enabled', v ? 1 : 0],
  nextRunAt: (v) => ['next_run_at', v],
};

/** The `SET` clause and its named parameters for `patch`; always bumps `updated_at`. */
export function patchAssignments(
  patch: JobPatch,
  now: number,
): { sql: string; params: Record<string, SqlValue> } {
  const params: Record<string, SqlValue> = { updated_at: now };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined || !(key in PATCH_COLUMNS)) continue;
    const toColumn = PATCH_COLUMNS[key as keyof JobPatch] as (v: unknown) => [string, SqlValue];
    const [column, sqlValue] = toColumn(value);
    params[column] = sqlValue;
  }
  const sql = Object.keys(params)
    .map((column) => `${column} = @${column}`)
    .join(', ');
  return { sql, params };
}
