/**
 * `hermes cron list|create|edit|pause|resume|remove|run|tick|runs`: the scheduled jobs in
 * `HERMES_HOME/state.db`. The gateway runs due jobs every minute; `run` and `tick` run them from
 * the command line. Everything here loads `@hermes/cron` only when a cron command runs.
 */
import { ExitCode, isUsageError, UsageError } from '@hermes/config';
import { isHermesError } from '@hermes/protocol';
import type { CommandContext } from '../command-context.js';
import { withUsage } from '../config/command-args.js';
import { type CronArgs, type CronOptionSpec, scanCronArgs } from './cron/cron-args.js';
import { type CronSession, hasJobStore, noJob, withJobStore } from './cron/cron-context.js';
import { CREATE_OPTIONS, EDIT_OPTIONS } from './cron/job-options.js';
import { createJob, editJob, removeJob, setEnabled } from './cron/jobs.js';
import { listJobs, listRuns, printJobs } from './cron/list.js';
import { runJob, tickJobs } from './cron/run-jobs.js';

const USAGE = `Usage: hermes cron <subcommand>

  list [--json] [--all]        enabled jobs: id, name, schedule, next run, last status
                               (--all adds paused and finished ones; --json the full records)
  create "<schedule>" "<prompt>" [--name N] [--deliver TARGET] [--skill S]... [--model M]
      [--toolset T]... [--workdir DIR] [--repeat N]
                               add a job; prints its id and next run
  edit <id> [--schedule S] [--prompt P] [--name N] [--deliver TARGET] [--skill S]... [--no-skills]
      [--model M | --no-model] [--toolset T]... [--no-toolsets] [--workdir DIR | --no-workdir]
      [--repeat N | --forever]
                               change a job (a new schedule computes the next run from now)
  pause <id> | resume <id>     stop and restart a job (resume computes the next run from now)
  remove <id>                  delete a job and its run history (output files stay)
  run <id>                     run it now in the foreground, print the answer (exit 1 when it
                               fails); with a gateway running, mark it due for the gateway
  tick                         run every due job once and exit (exit 1 when any fails)
  runs <id> [--json] [--limit N]
                               the job's runs, newest first (default 20)

Schedules: "every 2h", "every 30m" (repeating); "30m", "2 days" (once, from now); a 5- or
6-field cron expression ("0 9 * * 1-5", in cron.timezone); an ISO time ("2026-03-01T09:00").
TARGET: local (the output file only; the default), origin, or <platform>:<chat>[:<thread>].
Each run's answer is saved under HERMES_HOME/cron/output/<id>/.
`;

const ID_ONLY: CronOptionSpec = { single: [], repeated: [], flags: [] };

/** Each subcommand: what it accepts, and what it does. */
const SUBCOMMANDS: Readonly<
  Record<
    string,
    {
      readonly options: CronOptionSpec;
      /** Takes exactly one positional word: the job id. */
      readonly needsId: boolean;
      readonly body: (
        ctx: CommandContext,
        s: CronSession,
        args: CronArgs,
        id: string,
      ) => Promise<number>;
    }
  >
> = {
  list: {
    options: { single: [], repeated: [], flags: ['json', 'all'] },
    needsId: false,
    body: (ctx, s, args) => listJobs(ctx, s, args),
  },
  create: {
    options: CREATE_OPTIONS,
    needsId: false,
    body: (ctx, s, args) => createJob(ctx, s, args),
  },
  edit: {
    options: EDIT_OPTIONS,
    needsId: true,
    body: (ctx, s, args, id) => editJob(ctx, s, id, args),
  },
  pause: {
    options: ID_ONLY,
    needsId: true,
    body: (ctx, s, _a, id) => setEnabled(ctx, s, id, false),
  },
  resume: {
    options: ID_ONLY,
    needsId: true,
    body: (ctx, s, _a, id) => setEnabled(ctx, s, id, true),
  },
  remove: { options: ID_ONLY, needsId: true, body: (ctx, s, _a, id) => removeJob(ctx, s, id) },
  run: { options: ID_ONLY, needsId: true, body: (ctx, s, _a, id) => runJob(ctx, s, id) },
  tick: { options: ID_ONLY, needsId: false, body: (ctx, s) => tickJobs(ctx, s) },
  runs: {
    options: { single: ['limit'], repeated: [], flags: ['json'] },
    needsId: true,
    body: (ctx, s, args, id) => listRuns(ctx, s, id, args),
  },
};

async function dispatch(
  sub: string,
  rest: readonly string[],
  ctx: CommandContext,
): Promise<number> {
  const entry = SUBCOMMANDS[sub];
  if (entry === undefined) throw new UsageError(`unknown subcommand '${sub}'`);
  const args = scanCronArgs(rest, entry.options);
  const [id = '', extra] = args.positionals;
  if (entry.needsId) {
    if (id === '') throw new UsageError(`'${sub}' needs a job id (see: hermes cron list)`);
    if (extra !== undefined) throw new UsageError(`unexpected argument '${extra}'`);
  } else if (sub !== 'create' && args.positionals.length > 0) {
    throw new UsageError(`unexpected argument '${id}'`);
  }
  if (sub !== 'create' && !hasJobStore(ctx)) return nothingStored(ctx, sub, args, id);
  return withJobStore(ctx, (session) => entry.body(ctx, session, args, id));
}

/** What a subcommand says when there is no `state.db`, so no job (nothing is created). */
async function nothingStored(
  ctx: CommandContext,
  sub: string,
  args: CronArgs,
  id: string,
): Promise<number> {
  if (sub === 'list') return printJobs(ctx, [], args, undefined);
  if (sub !== 'tick') return noJob(ctx, id);
  ctx.stdout.write('No cron jobs are due.\n');
  return ExitCode.ok;
}

/** Runs `hermes cron`; resolves to the exit code. */
export function run(args: readonly string[], ctx: CommandContext): Promise<number> {
  return withUsage(ctx, 'cron', async () => {
    const [sub = 'list', ...rest] = args;
    if (['help', '--help', '-h'].includes(sub) || rest.includes('--help')) {
      ctx.stdout.write(USAGE);
      return ExitCode.ok;
    }
    try {
      return await dispatch(sub, rest, ctx);
    } catch (error) {
      if (isUsageError(error) || !isHermesError(error)) throw error;
      ctx.stderr.write(`hermes cron: ${error.message}\n`);
      return ExitCode.failure;
    }
  });
}
