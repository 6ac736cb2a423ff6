/**
 * `hermes cron create|edit|pause|resume|remove`: changing the job table in `state.db`. A running
 * gateway reads the table at every tick, so a change takes effect there within a minute.
 */
import { ExitCode, UsageError } from '@hermes/config';
import type { CronJob } from '@hermes/cron';
import type { CommandContext } from '../../command-context.js';
import type { CronArgs } from './cron-args.js';
import { type CronSession, findJob, NO_JOB, noJob } from './cron-context.js';
import { formatZoned } from './cron-format.js';
import { newJobOf, patchOf } from './job-options.js';

function nextRunText(job: CronJob, session: CronSession): string {
  if (!job.enabled) return 'paused';
  if (job.nextRunAt === null) return 'no next run';
  return `next run ${formatZoned(job.nextRunAt, session.timezone)}${session.timezone ? ` (${session.timezone})` : ''}`;
}

function describe(job: CronJob, session: CronSession): string {
  return `${session.cron.describeSchedule(job.schedule)}; ${nextRunText(job, session)}`;
}

/** `create "<schedule>" "<prompt>" …`: stores the job, prints its id and next run. */
export async function createJob(
  ctx: CommandContext,
  session: CronSession,
  args: CronArgs,
): Promise<number> {
  const [schedule, prompt, extra] = args.positionals;
  if (schedule === undefined || prompt === undefined) {
    throw new UsageError('\'create\' needs a schedule and a prompt: create "every 2h" "<prompt>"');
  }
  if (extra !== undefined) {
    throw new UsageError(`unexpected argument '${extra}' (quote the prompt as one argument)`);
  }
  const now = session.now();
  const input = { schedule, prompt, now, timezone: session.timezone, cwd: process.cwd() };
  const job = await session.store.create(newJobOf(session.cron, args, input), now);
  ctx.stdout.write(
    `Created cron job ${job.id} (${job.name}): ${describe(job, session)}\n` +
      `Delivers to: ${session.cron.formatDeliverTarget(job.deliver)}. Run it now with: hermes cron run ${job.id}\n`,
  );
  return ExitCode.ok;
}

/** `edit <id> …`: applies the options given. */
export async function editJob(
  ctx: CommandContext,
  session: CronSession,
  id: string,
  args: CronArgs,
): Promise<number> {
  const job = await findJob(ctx, session.store, id);
  if (job === undefined) return NO_JOB;
  const now = session.now();
  const input = { job, now, timezone: session.timezone, cwd: process.cwd() };
  const updated = await session.store.update(id, patchOf(session.cron, args, input), now);
  if (updated === undefined) return noJob(ctx, id);
  ctx.stdout.write(`Updated cron job ${id} (${updated.name}): ${describe(updated, session)}\n`);
  return ExitCode.ok;
}

/** `pause <id>` and `resume <id>`; resume computes the next run from now. */
export async function setEnabled(
  ctx: CommandContext,
  session: CronSession,
  id: string,
  enabled: boolean,
): Promise<number> {
  const job = await findJob(ctx, session.store, id);
  if (job === undefined) return NO_JOB;
  if (job.enabled === enabled) {
    ctx.stdout.write(
      `Cron job ${id} (${job.name}) is already ${enabled ? 'enabled' : 'paused'}.\n`,
    );
    return ExitCode.ok;
  }
  const now = session.now();
  const patch = session.cron.enabledPatch(job, enabled, { now, timezone: session.timezone });
  const updated = await session.store.update(id, patch, now);
  if (updated === undefined) return noJob(ctx, id);
  const verb = enabled ? 'Resumed' : 'Paused';
  ctx.stdout.write(`${verb} cron job ${id} (${updated.name}): ${describe(updated, session)}\n`);
  return ExitCode.ok;
}

/** `remove <id>`: deletes the job and its run history (its output files stay). */
export async function removeJob(
  ctx: CommandContext,
  session: CronSession,
  id: string,
): Promise<number> {
  const job = await findJob(ctx, session.store, id);
  if (job === undefined) return NO_JOB;
  if (!(await session.store.remove(id))) return noJob(ctx, id);
  ctx.stdout.write(`Removed cron job ${id} (${job.name}).\n`);
  return ExitCode.ok;
}
