/**
 * The options of `hermes cron create` and `hermes cron edit` turned into the store's `NewJob` and
 * `JobPatch` through `@hermes/cron`'s own reading of a job description, so the CLI accepts what
 * the `cronjob` tool and `/api/jobs` accept, with the same defaults and the same strict scan of
 * the prompt; a description it rejects is a usage error (exit 2), a blocked prompt a failure.
 */
import { resolve } from 'node:path';
import { UsageError } from '@hermes/config';
import type { CronJob, JobInput, JobPatch, NewJob } from '@hermes/cron';
import { hasErrorCode } from '@hermes/protocol';
import { type CronArgs, type CronOptionSpec, exclusive, wholeNumber } from './cron-args.js';
import type { CronModule } from './cron-context.js';

/** Options `create` accepts besides its two positional words. */
export const CREATE_OPTIONS: CronOptionSpec = {
  single: ['name', 'deliver', 'model', 'workdir', 'repeat'],
  repeated: ['skill', 'toolset'],
  flags: [],
};

/** Options `edit` accepts besides the job id. */
export const EDIT_OPTIONS: CronOptionSpec = {
  single: ['schedule', 'prompt', 'name', 'deliver', 'model', 'workdir', 'repeat'],
  repeated: ['skill', 'toolset'],
  flags: ['no-skills', 'no-model', 'no-toolsets', 'no-workdir', 'forever'],
};

/** Toolsets a job may never have: a run has no one to ask, delegate to, or reschedule for. */
const FORBIDDEN_TOOLSETS = new Set(['clarify', 'delegation', 'cronjob']);

/** What `@hermes/cron` throws for a description it cannot read: a usage error here. */
const INPUT_ERRORS = [
  'cron.bad_arguments',
  'cron.bad_schedule',
  'cron.bad_duration',
  'cron.bad_deliver',
];

/** Runs a reader of `@hermes/cron`, turning its rejection of the input into a usage error. */
function parsed<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (INPUT_ERRORS.some((code) => hasErrorCode(error, code))) {
      throw new UsageError((error as Error).message);
    }
    throw error;
  }
}

/** The clock and zone a command line is read in, and where a relative `--workdir` starts. */
export interface ReadEnv {
  readonly now: number;
  readonly timezone?: string | undefined;
  readonly cwd: string;
}

function toolsets(args: CronArgs): string[] | undefined {
  const list = args.lists.get('toolset');
  const bad = list?.find((name) => FORBIDDEN_TOOLSETS.has(name));
  if (bad !== undefined) {
    throw new UsageError(`a cron job cannot have the '${bad}' toolset (no one is there to answer)`);
  }
  return list === undefined ? undefined : [...list];
}

/**
 * The options as `@hermes/cron`'s job description (`JobInput`), so the command line, the
 * `cronjob` tool and `/api/jobs` share defaults, the first run and the prompt scan.
 */
function inputOf(args: CronArgs, env: ReadEnv, fields: Partial<JobInput>): JobInput {
  const single = (name: string) => args.single.get(name);
  const workdir = single('workdir');
  const repeat = args.flags.has('forever') ? 0 : wholeNumber(args, 'repeat');
  const skills = args.flags.has('no-skills') ? [] : args.lists.get('skill');
  const sets = toolsets(args);
  const model = args.flags.has('no-model') ? '' : single('model');
  const input: JobInput = {
    ...fields,
    ...(single('name') === undefined ? {} : { name: single('name') }),
    ...(single('deliver') === undefined ? {} : { deliver: single('deliver') }),
    ...(skills === undefined ? {} : { skills: [...skills] }),
    ...(model === undefined ? {} : { model }),
    ...(repeat === undefined ? {} : { repeat }),
    ...(sets === undefined ? {} : { enabled_toolsets: sets }),
    ...(workdir === undefined ? {} : { workdir: resolve(env.cwd, workdir) }),
  };
  return refuseEmpty(input);
}

/** Empty texts are refused here with the option named, before the shared reader sees them. */
function refuseEmpty(input: JobInput): JobInput {
  for (const [key, value] of Object.entries(input)) {
    if (key !== 'model' && typeof value === 'string' && value.trim() === '') {
      throw new UsageError(`'${key === 'enabled_toolsets' ? 'toolset' : key}' is empty`);
    }
  }
  return input;
}

/** The new job `hermes cron create "<schedule>" "<prompt>" …` stores. @throws UsageError */
export function newJobOf(
  cron: CronModule,
  args: CronArgs,
  env: ReadEnv & { readonly schedule: string; readonly prompt: string },
): NewJob {
  const input = inputOf(args, env, { schedule: env.schedule, prompt: env.prompt });
  // The command line has no chat of its own: without --deliver, answers go to the output file.
  return parsed(() =>
    cron.newJobFromInput({ deliver: 'local', ...input }, { now: env.now, timezone: env.timezone }),
  );
}

/** The change `hermes cron edit <id> …` makes. @throws UsageError when nothing would change */
export function patchOf(
  cron: CronModule,
  args: CronArgs,
  env: ReadEnv & { readonly job: CronJob },
): JobPatch {
  for (const [a, b] of [
    ['skill', 'no-skills'],
    ['model', 'no-model'],
    ['toolset', 'no-toolsets'],
    ['workdir', 'no-workdir'],
    ['repeat', 'forever'],
  ] as const) {
    exclusive(args, a, b);
  }
  const schedule = args.single.get('schedule');
  const prompt = args.single.get('prompt');
  const input = inputOf(args, env, {
    ...(schedule === undefined ? {} : { schedule }),
    ...(prompt === undefined ? {} : { prompt }),
  });
  const patch: JobPatch = {
    ...parsed(() =>
      cron.jobPatchFromInput(env.job, input, { now: env.now, timezone: env.timezone }),
    ),
    // What a description cannot say: back to the `hermes-cron` toolset, the configured workdir.
    ...(args.flags.has('no-toolsets') ? { enabledToolsets: null } : {}),
    ...(args.flags.has('no-workdir') ? { workdir: null } : {}),
  };
  if (Object.keys(patch).length === 0) {
    throw new UsageError("'edit' needs at least one change (see: hermes cron --help)");
  }
  return patch;
}
