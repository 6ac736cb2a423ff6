/**
 * `hermes cron list [--json] [--all]` and `hermes cron runs <id> [--json] [--limit N]`: the jobs
 * with their next run in the configured timezone, and one job's run history.
 */
import { ExitCode } from '@hermes/config';
import type { CronJob } from '@hermes/cron';
import type { CommandContext } from '../../command-context.js';
import { type CronArgs, wholeNumber } from './cron-args.js';
import { type CronSession, findJob, NO_JOB } from './cron-context.js';
import { jobTable, runTable } from './cron-format.js';

/** How many runs `runs` shows without `--limit`. */
export const DEFAULT_RUNS_LIMIT = 20;

/** Prints the jobs: enabled ones, or every one with `--all`; `--json` prints full records. */
export async function listJobs(
  ctx: CommandContext,
  session: CronSession,
  args: CronArgs,
): Promise<number> {
  return printJobs(ctx, await session.store.list(), args, session.timezone);
}

/** Prints `every` as `list` does (its `--all` and `--json` in `args`). */
export function printJobs(
  ctx: CommandContext,
  every: readonly CronJob[],
  args: CronArgs,
  timezone: string | undefined,
): number {
  const jobs = args.flags.has('all') ? every : every.filter((job) => job.enabled);
  if (args.flags.has('json')) {
    ctx.stdout.write(`${JSON.stringify(jobs, null, 2)}\n`);
    return ExitCode.ok;
  }
  const hidden = every.length - jobs.length;
  const note =
    hidden > 0 ? `${hidden} paused or finished job(s) not shown; --all lists them.\n` : '';
  if (jobs.length === 0) {
    ctx.stdout.write(
      `No cron jobs${hidden > 0 ? ' enabled' : ''}. Create one with: hermes cron create "every 2h" "<prompt>"\n${note}`,
    );
    return ExitCode.ok;
  }
  ctx.stdout.write(`${jobTable(jobs, timezone).join('\n')}\n${note}`);
  return ExitCode.ok;
}

/** Prints a job's runs, newest first. */
export async function listRuns(
  ctx: CommandContext,
  session: CronSession,
  id: string,
  args: CronArgs,
): Promise<number> {
  const job = await findJob(ctx, session.store, id);
  if (job === undefined) return NO_JOB;
  const runs = await session.store.listRuns(id, wholeNumber(args, 'limit') ?? DEFAULT_RUNS_LIMIT);
  if (args.flags.has('json')) {
    ctx.stdout.write(`${JSON.stringify(runs, null, 2)}\n`);
    return ExitCode.ok;
  }
  if (runs.length === 0) {
    ctx.stdout.write(
      `Job ${id} (${job.name}) has not run yet. Run it now with: hermes cron run ${id}\n`,
    );
    return ExitCode.ok;
  }
  ctx.stdout.write(`${runTable(runs, session.timezone).join('\n')}\n`);
  return ExitCode.ok;
}
