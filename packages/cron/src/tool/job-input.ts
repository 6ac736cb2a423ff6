/**
 * A job as its users describe it — the `cronjob` tool's arguments, an `/api/jobs` body, the CLI's
 * flags — turned into what the store takes. One place decides defaults (name, deliver, repeat),
 * the first run, and the strict scan of the prompt, so every way in behaves the same.
 */
import { HermesError } from '@hermes/protocol';
import { scanSkillContent } from '@hermes/skills';
import { z } from 'zod';
import type { CronJob, DeliverTarget, JobOrigin, JobPatch, NewJob, Schedule } from '../job.js';
import { CronPromptInjectionBlocked } from '../run/prompt-blocked.js';
import { parseDeliverTarget } from '../schedule/deliver-target.js';
import { nextRunAfter } from '../schedule/next-run.js';
import { parseSchedule } from '../schedule/parse-schedule.js';

/** The fields a job is described with (snake_case, as the tool and the HTTP API spell them). */
export const JobInputSchema = z.strictObject({
  name: z.string().trim().min(1).max(200).optional(),
  prompt: z.string().trim().min(1).optional(),
  schedule: z.string().trim().min(1).optional(),
  deliver: z.string().trim().min(1).optional(),
  skills: z.array(z.string().trim().min(1)).optional(),
  /** `""` on update clears the override. */
  model: z.string().trim().optional(),
  /** 0 = forever. */
  repeat: z.number().int().min(0).optional(),
  enabled_toolsets: z.array(z.string().trim().min(1)).optional(),
  workdir: z.string().trim().min(1).optional(),
});

/** A parsed {@link JobInputSchema}. */
export type JobInput = z.infer<typeof JobInputSchema>;

/** The clock and zone a description is read in. */
export interface JobInputEnv {
  readonly now: number;
  /** IANA zone for cron expressions and zone-less times; default the system zone. */
  readonly timezone?: string | undefined;
}

function badArguments(message: string): HermesError {
  return new HermesError('cron.bad_arguments', message);
}

/** The prompt is the user's own text: scanned strictly when saved, as well as before every run. */
export function checkJobPrompt(prompt: string): void {
  const scan = scanSkillContent(prompt);
  if (!scan.ok) throw new CronPromptInjectionBlocked({ kind: 'prompt' }, scan.findings);
}

/**
 * The first run of `schedule` from `now`: a one-shot's own time (a few seconds in the past runs
 * at the next tick), else the next occurrence after now.
 */
export function firstRunAt(schedule: Schedule, env: JobInputEnv): number | null {
  if (schedule.kind === 'once') return Math.max(schedule.runAt, env.now);
  return nextRunAfter(schedule, env.now, { timezone: env.timezone });
}

function deliverFor(text: string | undefined, origin: JobOrigin | undefined): DeliverTarget {
  const target = parseDeliverTarget(text ?? (origin ? 'origin' : 'local'));
  if (target.kind === 'origin' && !origin) {
    throw badArguments(
      'this job has no chat to deliver to (deliver=origin); use deliver=local or "<platform>:<chat>"',
    );
  }
  return target;
}

function defaultName(prompt: string): string {
  const line = prompt.split('\n')[0]?.trim() ?? 'job';
  return line.length > 40 ? `${line.slice(0, 40)}…` : line;
}

const repeatTimes = (repeat: number): number | null => (repeat === 0 ? null : repeat);

/**
 * A new job from `input` (schedule and prompt required). `deliver` defaults to the origin chat
 * when there is one, else `local`.
 *
 * @throws HermesError `cron.bad_arguments`, `cron.bad_schedule`, `cron.bad_deliver`, or
 *   `CronPromptInjectionBlocked` for a prompt the scan refuses.
 */
export function newJobFromInput(input: JobInput, env: JobInputEnv, origin?: JobOrigin): NewJob {
  if (input.schedule === undefined || input.prompt === undefined) {
    throw badArguments('a new job needs schedule and prompt');
  }
  checkJobPrompt(input.prompt);
  const schedule = parseSchedule(input.schedule, { now: env.now, timezone: env.timezone });
  return {
    name: input.name ?? defaultName(input.prompt),
    prompt: input.prompt,
    schedule,
    scheduleText: input.schedule,
    ...(input.repeat !== undefined ? { repeatTimes: repeatTimes(input.repeat) } : {}),
    deliver: deliverFor(input.deliver, origin),
    ...(origin ? { origin } : {}),
    ...(input.skills !== undefined ? { skills: input.skills } : {}),
    ...(input.model ? { model: input.model } : {}),
    ...(input.enabled_toolsets !== undefined ? { enabledToolsets: input.enabled_toolsets } : {}),
    ...(input.workdir !== undefined ? { workdir: input.workdir } : {}),
    nextRunAt: firstRunAt(schedule, env),
  };
}

/**
 * The change `input` makes to `job` (only the fields it names). A new schedule of an enabled job
 * reschedules it from now. An empty patch means nothing was named.
 */
export function jobPatchFromInput(job: CronJob, input: JobInput, env: JobInputEnv): JobPatch {
  const patch: { -readonly [K in keyof JobPatch]: JobPatch[K] } = {};
  if (input.name !== undefined) patch.name = input.name;
  if (input.prompt !== undefined) {
    checkJobPrompt(input.prompt);
    patch.prompt = input.prompt;
  }
  if (input.schedule !== undefined) {
    const schedule = parseSchedule(input.schedule, { now: env.now, timezone: env.timezone });
    patch.schedule = schedule;
    patch.scheduleText = input.schedule;
    if (job.enabled) patch.nextRunAt = firstRunAt(schedule, env);
  }
  if (input.deliver !== undefined) patch.deliver = deliverFor(input.deliver, job.origin);
  if (input.skills !== undefined) patch.skills = input.skills;
  if (input.model !== undefined) patch.model = input.model === '' ? null : input.model;
  if (input.repeat !== undefined) patch.repeatTimes = repeatTimes(input.repeat);
  if (input.enabled_toolsets !== undefined) patch.enabledToolsets = input.enabled_toolsets;
  if (input.workdir !== undefined) patch.workdir = input.workdir;
  return patch;
}

/** Pausing keeps the schedule; resuming schedules the next run from now. */
export function enabledPatch(job: CronJob, enabled: boolean, env: JobInputEnv): JobPatch {
  return enabled ? { enabled, nextRunAt: firstRunAt(job.schedule, env) } : { enabled };
}
