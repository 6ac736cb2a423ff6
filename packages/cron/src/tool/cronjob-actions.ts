/**
 * What each `cronjob` action does to the store. Every failure is a HermesError whose message
 * tells the model what to do instead; dispatch turns it into a tool error.
 */
import { HermesError } from '@hermes/protocol';
import type { ToolContext } from '@hermes/tools';
import type { CronJob, JobOrigin, JobPatch, RunOutcome } from '../job.js';
import type { JobStore } from '../store/job-store.js';
import type { CronjobArgs } from './cronjob-args.js';
import { enabledPatch, type JobInput, jobPatchFromInput, newJobFromInput } from './job-input.js';
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

function originOf(ctx: ToolContext): JobOrigin | undefined {
  if (!ctx.origin) return undefined;
  return { ...ctx.origin, sessionId: ctx.sessionId };
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
  const job = await env.store.create(newJobFromInput(inputOf(args), env, originOf(ctx)), env.now);
  return reply({ message: `Created job ${job.id}.`, job: jobView(job) });
}

/** The job fields of the tool's arguments. */
function inputOf(args: CronjobArgs): JobInput {
  const { action: _action, job_id: _id, ...input } = args;
  return input;
}

/** `list`: every job. */
export async function listAction(env: CronjobEnv): Promise<string> {
  const jobs = await env.store.list();
  return reply({ count: jobs.length, jobs: jobs.map(jobView) });
}

/** `update`: change the fields given. */
export async function updateAction(env: CronjobEnv, args: CronjobArgs): Promise<string> {
  const job = await requireJob(env, args.job_id, 'update');
  const patch = jobPatchFromInput(job, inputOf(args), env);
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
  const updated = await requireSaved(env, job.id, enabledPatch(job, enabled, env));
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
    if (isOutcome(result)) return reply({ message: `Ran job ${job.id}.`, run: runView(result) });
    // The host started it in the background: the answer goes where the job delivers.
    return reply({
      message: `Started job ${job.id}; its answer is delivered like a scheduled run's.`,
    });
  }
  if (!job.enabled) throw badArguments(`job ${job.id} is paused; resume it first (action=resume)`);
  const updated = await requireSaved(env, job.id, { nextRunAt: env.now });
  return reply({
    message: `Job ${job.id} will run on the next scheduler tick.`,
    job: jobView(updated),
  });
}
