/**
 * The options of `hermes cron create` and `hermes cron edit` turned into the store's `NewJob` and
 * `JobPatch`. The schedule and delivery target are parsed by `@hermes/cron` itself, so the CLI
 * accepts exactly what the `cronjob` tool accepts; a text it rejects is a usage error (exit 2).
 */
import { resolve } from 'node:path';
import { UsageError } from '@hermes/config';
import type { CronJob, DeliverTarget, JobPatch, NewJob, Schedule } from '@hermes/cron';
import { hasErrorCode } from '@hermes/protocol';
import { oneLine } from '../sessions/format.js';
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

const PARSE_ERRORS = ['cron.bad_schedule', 'cron.bad_duration', 'cron.bad_deliver'];

/** Runs a parser of `@hermes/cron`, turning its rejection of the text into a usage error. */
function parsed<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (PARSE_ERRORS.some((code) => hasErrorCode(error, code))) {
      throw new UsageError((error as Error).message);
    }
    throw error;
  }
}

/** What a schedule text parses to, with its first run after `now`. */
export interface ParsedSchedule {
  readonly schedule: Schedule;
  readonly scheduleText: string;
  readonly nextRunAt: number | null;
}

/** Parses a schedule and computes its first run. @throws UsageError */
export function scheduleOf(
  cron: CronModule,
  text: string,
  now: number,
  timezone: string | undefined,
): ParsedSchedule {
  const zone = timezone === undefined ? {} : { timezone };
  const schedule = parsed(() => cron.parseSchedule(text, { now, ...zone }));
  return {
    schedule,
    scheduleText: text.trim(),
    // A one-shot a little in the past (parseSchedule allows 120 s) runs at the next tick.
    nextRunAt:
      schedule.kind === 'once'
        ? Math.max(schedule.runAt, now)
        : cron.nextRunAfter(schedule, now, zone),
  };
}

/** A delivery target; `origin` only for a job that has an origin chat. @throws UsageError */
function deliverOf(cron: CronModule, text: string, hasOrigin: boolean): DeliverTarget {
  const target = parsed(() => cron.parseDeliverTarget(text));
  if (target.kind === 'origin' && !hasOrigin) {
    throw new UsageError(
      "'--deliver origin' needs the chat a job was created from, and this job has none: use local or <platform>:<chat>[:<thread>]",
    );
  }
  return target;
}

function toolsets(args: CronArgs): string[] | undefined {
  const list = args.lists.get('toolset');
  const bad = list?.find((name) => FORBIDDEN_TOOLSETS.has(name));
  if (bad !== undefined) {
    throw new UsageError(`a cron job cannot have the '${bad}' toolset (no one is there to answer)`);
  }
  return list === undefined ? undefined : [...list];
}

/** The inputs of `create`, besides the scanned options. */
export interface CreateInput {
  readonly schedule: string;
  readonly prompt: string;
  readonly now: number;
  readonly timezone?: string;
  /** Where a relative `--workdir` is resolved from. */
  readonly cwd: string;
}

/** The new job `hermes cron create` stores. @throws UsageError */
export function newJobOf(cron: CronModule, args: CronArgs, input: CreateInput): NewJob {
  if (input.prompt.trim() === '') throw new UsageError('the prompt is empty');
  const { schedule, scheduleText, nextRunAt } = scheduleOf(
    cron,
    input.schedule,
    input.now,
    input.timezone,
  );
  const model = args.single.get('model');
  const workdir = args.single.get('workdir');
  const repeat = wholeNumber(args, 'repeat');
  const sets = toolsets(args);
  return {
    name: args.single.get('name') ?? oneLine(input.prompt, 40),
    prompt: input.prompt,
    schedule,
    scheduleText,
    nextRunAt,
    // The command line has no chat to answer in: the output file is the default.
    deliver: deliverOf(cron, args.single.get('deliver') ?? 'local', false),
    skills: [...(args.lists.get('skill') ?? [])],
    ...(model === undefined ? {} : { model }),
    ...(sets === undefined ? {} : { enabledToolsets: sets }),
    ...(workdir === undefined ? {} : { workdir: resolve(input.cwd, workdir) }),
    ...(repeat === undefined ? {} : { repeatTimes: repeat }),
  };
}

/** The inputs of `edit`, besides the scanned options. */
export interface EditInput {
  readonly job: CronJob;
  readonly now: number;
  readonly timezone?: string;
  readonly cwd: string;
}

function schedulePatch(cron: CronModule, args: CronArgs, input: EditInput): JobPatch {
  const text = args.single.get('schedule');
  if (text === undefined) return {};
  const next = scheduleOf(cron, text, input.now, input.timezone);
  // A paused job keeps no next run until it is resumed (resume computes it from then).
  return {
    schedule: next.schedule,
    scheduleText: next.scheduleText,
    ...(input.job.enabled ? { nextRunAt: next.nextRunAt } : {}),
  };
}

function clearable<T>(value: T | undefined, cleared: boolean): { value?: T | null } {
  if (cleared) return { value: null };
  return value === undefined ? {} : { value };
}

/** The change `hermes cron edit` makes. @throws UsageError when nothing would change */
export function patchOf(cron: CronModule, args: CronArgs, input: EditInput): JobPatch {
  for (const [a, b] of [
    ['skill', 'no-skills'],
    ['model', 'no-model'],
    ['toolset', 'no-toolsets'],
    ['workdir', 'no-workdir'],
    ['repeat', 'forever'],
  ] as const) {
    exclusive(args, a, b);
  }
  const prompt = args.single.get('prompt');
  if (prompt !== undefined && prompt.trim() === '') throw new UsageError('the prompt is empty');
  const name = args.single.get('name');
  const deliver = args.single.get('deliver');
  const skills = args.flags.has('no-skills') ? [] : args.lists.get('skill');
  const model = clearable(args.single.get('model'), args.flags.has('no-model')).value;
  const sets = clearable(toolsets(args), args.flags.has('no-toolsets')).value;
  const dir = args.single.get('workdir');
  const workdir = clearable(dir && resolve(input.cwd, dir), args.flags.has('no-workdir')).value;
  const repeat = clearable(wholeNumber(args, 'repeat'), args.flags.has('forever')).value;
  const patch: JobPatch = {
    ...schedulePatch(cron, args, input),
    ...(prompt === undefined ? {} : { prompt }),
    ...(name === undefined ? {} : { name }),
    ...(deliver === undefined
      ? {}
      : { deliver: deliverOf(cron, deliver, input.job.origin !== undefined) }),
    ...(skills === undefined ? {} : { skills: [...skills] }),
    ...(model === undefined ? {} : { model }),
    ...(sets === undefined ? {} : { enabledToolsets: sets }),
    ...(workdir === undefined ? {} : { workdir }),
    ...(repeat === undefined ? {} : { repeatTimes: repeat }),
  };
  if (Object.keys(patch).length === 0) {
    throw new UsageError("'edit' needs at least one change (see: hermes cron --help)");
  }
  return patch;
}

/**
 * The next run of a job resumed at `now`: its schedule's next run from now; a one-shot whose time
 * passed while it was paused runs at the next tick.
 */
export function resumedNextRun(
  cron: CronModule,
  job: CronJob,
  now: number,
  timezone: string | undefined,
): number | null {
  if (job.schedule.kind === 'once') return Math.max(job.schedule.runAt, now);
  return cron.nextRunAfter(job.schedule, now, timezone === undefined ? {} : { timezone });
}
