/**
 * What each `cronjob` action does to the store. Every failure is a HermesError whose message
 * tells the model what to do instead; dispatch turns it into a tool error.
 */
import { HermesError } from '@hermes/protocol';
import { scanSkillContent } from '@hermes/skills';
import type { ToolContext } from '@hermes/tools';
import type { CronJob, DeliverTarget, JobOrigin, JobPatch, RunOutcome, Schedule } from '../job.js';
import { CronPromptInjectionBlocked } from '../run/prompt-blocked.js';
import { parseDeliverTarget } from '../schedule/deliver-target.js';
import { nextRunAfter } from '../schedule/next-run.js';
import { parseSchedule } from '../schedule/parse-schedule.js';
import type { JobStore } from '../store/job-store.js';
import type { CronjobArgs } from './cronjob-args.js';
import { jobView, runView } from './job-view.js';

/** What the actions share: the store, the clock, the zone, and how to run a job now. */
export interface CronjobEnv {
  readonly store: JobStore;
  readonly now: number;
  readonly timezone?: string | undefined;
  readonly runNow?: ((id: string) => Promise<unknown>) | undefined;
}

function badArguments(message: string): HermesError {
  return new HermesError('cron.bad_arguments', message);
}

function reply(body: Record<string, unknown>): string {
  return JSON.stringify({ success: true, ...body });
}

async function requireJob(
  env: CronjobEnv,
  id: string | undefined,
  action: string,
): Promise<CronJob> {
  if (id === undefined) throw badArguments(`action=${action} needs job_id (see action=list)`);
  const job = await env.store.get(id);
  if (!job) throw new HermesError('cron.unknown_job', `no job ${id}; use action=list`);
  return job;
}

/** The prompt is the user's own text: scanned strictly now, as well as before every run. */
function checkPrompt(prompt: string): void {
  const scan = scanSkillContent(prompt);
  if (!scan.ok) throw new CronPromptInjectionBlocked({ kind: 'prompt' }, scan.findings);
}

/** The first run of a schedule from `now`: a one-shot's own time, else the next after now. */
function firstRun(schedule: Schedule, env: CronjobEnv): number | null {
  if (schedule.kind === 'once') return Math.max(schedule.runAt, env.now);
  return nextRunAfter(schedule, env.now, { timezone: env.timezone });
}

function originOf(ctx: ToolContext): JobOrigin | undefined {
  if (!ctx.origin) return undefined;
  return { ...ctx.origin, sessionId: ctx.sessionId };
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

/** `create`: a new job from this chat. */
export async function createAction(
  env: CronjobEnv,
  args: CronjobArgs,
  ctx: ToolContext,
): Promise<string> {
  if (args.schedule === undefined || args.prompt === undefined) {
    throw badArguments('action=create needs schedule and prompt');
  }
  checkPrompt(args.prompt);
  const schedule = parseSchedule(args.schedule, { now: env.now, timezone: env.timezone });
  const origin = originOf(ctx);
  const job = await env.store.create(
    {
      name: args.name ?? defaultName(args.prompt),
      prompt: args.prompt,
      schedule,
      scheduleText: args.schedule,
      ...(args.repeat !== undefined ? { repeatTimes: args.repeat === 0 ? null : args.repeat } : {}),
      deliver: deliverFor(args.deliver, origin),
      ...(origin ? { origin } : {}),
      ...(args.skills !== undefined ? { skills: args.skills } : {}),
      ...(args.model ? { model: args.model } : {}),
      nextRunAt: firstRun(schedule, env),
    },
    env.now,
  );
  return reply({ message: `Created job ${job.id}.`, job: jobView(job) });
}

/** `list`: every job. */
export async function listAction(env: CronjobEnv): Promise<string> {
  const jobs = await env.store.list();
  return reply({ count: jobs.length, jobs: jobs.map(jobView) });
}

function updatePatch(env: CronjobEnv, job: CronJob, args: CronjobArgs): JobPatch {
  const patch: Record<string, unknown> = {};
  if (args.name !== undefined) patch.name = args.name;
  if (args.prompt !== undefined) {
    checkPrompt(args.prompt);
    patch.prompt = args.prompt;
  }
  if (args.schedule !== undefined) {
    const schedule = parseSchedule(args.schedule, { now: env.now, timezone: env.timezone });
    patch.schedule = schedule;
    patch.scheduleText = args.schedule;
    if (job.enabled) patch.nextRunAt = firstRun(schedule, env);
  }
  if (args.deliver !== undefined) patch.deliver = deliverFor(args.deliver, job.origin);
  if (args.skills !== undefined) patch.skills = args.skills;
  if (args.model !== undefined) patch.model = args.model === '' ? null : args.model;
  if (args.repeat !== undefined) patch.repeatTimes = args.repeat === 0 ? null : args.repeat;
  return patch as JobPatch;
}

/** `update`: change the fields given. */
export async function updateAction(env: CronjobEnv, args: CronjobArgs): Promise<string> {
  const job = await requireJob(env, args.job_id, 'update');
  const patch = updatePatch(env, job, args);
  if (Object.keys(patch).length === 0) {
    throw badArguments(
      'action=update needs at least one of name, prompt, schedule, deliver, skills, model, repeat',
    );
  }
  const updated = await requireSaved(env, job.id, patch);
  return reply({ message: `Updated job ${job.id}.`, job: jobView(updated) });
}

async function requireSaved(env: CronjobEnv, id: string, patch: JobPatch): Promise<CronJob> {
  const updated = await env.store.update(id, patch, env.now);
  if (!updated) throw new HermesError('cron.unknown_job', `no job ${id}; use action=list`);
  return updated;
}

/** `pause` / `resume`: stop scheduling, or schedule again from now. */
export async function setEnabledAction(
  env: CronjobEnv,
  args: CronjobArgs,
  enabled: boolean,
): Promise<string> {
  const job = await requireJob(env, args.job_id, enabled ? 'resume' : 'pause');
  const patch: JobPatch = enabled
    ? { enabled, nextRunAt: firstRun(job.schedule, env) }
    : { enabled };
  const updated = await requireSaved(env, job.id, patch);
  return reply({
    message: `${enabled ? 'Resumed' : 'Paused'} job ${job.id}.`,
    job: jobView(updated),
  });
}

/** `remove`: delete the job and its history. */
export async function removeAction(env: CronjobEnv, args: CronjobArgs): Promise<string> {
  const job = await requireJob(env, args.job_id, 'remove');
  if (!(await env.store.remove(job.id))) {
    throw new HermesError('cron.unknown_job', `no job ${job.id}; use action=list`);
  }
  return reply({ message: `Removed job ${job.id} (${job.name}).` });
}

function isOutcome(value: unknown): value is RunOutcome {
  return (
    typeof value === 'object' && value !== null && typeof (value as RunOutcome).status === 'string'
  );
}

/** `run`: now in the foreground when the host can, else on the next scheduler tick. */
export async function runAction(env: CronjobEnv, args: CronjobArgs): Promise<string> {
  const job = await requireJob(env, args.job_id, 'run');
  if (env.runNow) {
    const result = await env.runNow(job.id);
    if (result === undefined) {
      throw new HermesError(
        'cron.job_busy',
        `job ${job.id} is running elsewhere right now; try again later`,
      );
    }
    return reply({ message: `Ran job ${job.id}.`, run: isOutcome(result) ? runView(result) : {} });
  }
  if (!job.enabled) throw badArguments(`job ${job.id} is paused; resume it first (action=resume)`);
  const updated = await requireSaved(env, job.id, { nextRunAt: env.now });
  return reply({
    message: `Job ${job.id} will run on the next scheduler tick.`,
    job: jobView(updated),
  });
}
