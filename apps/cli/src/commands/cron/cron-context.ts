/**
 * What every `hermes cron` subcommand shares: `@hermes/cron` loaded on demand (it brings SQLite
 * and croner, which no other command needs — a lazy chunk of the executable, see
 * `src/lazy-chunks.ts`), the configured timezone, the job store in `HERMES_HOME/state.db`, and
 * the unknown-id message.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ExitCode } from '@hermes/config';
import type { CronJob, JobStore } from '@hermes/cron';
import { HermesError } from '@hermes/protocol';
import { DATABASE_URL_ENV, getConfigValue, isTimeZone } from '@hermes/runtime';
import type { CommandContext } from '../../command-context.js';

/** The `@hermes/cron` module. */
export type CronModule = typeof import('@hermes/cron');

/** Loads `@hermes/cron` (only when a cron command runs). */
export function loadCron(): Promise<CronModule> {
  return import('@hermes/cron');
}

/**
 * The timezone cron expressions and printed times use: `cron.timezone`, else (undefined) the
 * machine's, as the gateway's scheduler does. Read alone, without loading the whole
 * configuration, so listing jobs stays quick.
 * @throws HermesError `config.invalid` for a value that is not an IANA zone name
 */
export function cronTimezone(ctx: CommandContext): string | undefined {
  const value = getConfigValue(ctx.hermesHome, ['cron', 'timezone']);
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !isTimeZone(value)) {
    throw new HermesError(
      'config.invalid',
      `cron.timezone in config.yaml is not a time zone: '${String(value)}' (use an IANA name such as Europe/Berlin or UTC)`,
    );
  }
  return value;
}

/**
 * Whether `HERMES_HOME/state.db` exists. Commands that only look (list, runs, run of an id)
 * answer "no jobs" without it rather than create the database — and the data home — just to look.
 */
export function hasJobStore(ctx: CommandContext): boolean {
  return mayUsePostgres(ctx) || existsSync(join(ctx.hermesHome, 'state.db'));
}

/**
 * Whether config.yaml has a `storage:` section or `HERMES_DATABASE_URL` is set: only then is the
 * whole configuration loaded to find the backend (listing jobs on SQLite stays quick).
 */
function mayUsePostgres(ctx: CommandContext): boolean {
  if (ctx.env[DATABASE_URL_ENV]?.trim()) return true;
  const storage = getConfigValue(ctx.hermesHome, ['storage']);
  return storage !== undefined && storage !== null;
}

/** The job store `storage:` selects: SQLite in `HERMES_HOME/state.db` or PostgreSQL. */
async function openJobStore(ctx: CommandContext, cron: CronModule): Promise<JobStore> {
  if (!mayUsePostgres(ctx)) return cron.openSqliteJobStore(ctx.hermesHome);
  const runtime = await import('@hermes/runtime');
  const config = await runtime.loadHermesConfig({ hermesHome: ctx.hermesHome, env: ctx.env });
  return runtime.openJobStoreFor(config, 'hermes-cron');
}

/** What a subcommand body gets. */
export interface CronSession {
  readonly cron: CronModule;
  readonly store: JobStore;
  readonly timezone: string | undefined;
  /** The clock every time is read from (the store's and the scheduler's unit: ms). */
  readonly now: () => number;
}

/** Opens the job store for `body` and closes it after, whatever happens. */
export async function withJobStore(
  ctx: CommandContext,
  body: (session: CronSession) => Promise<number>,
): Promise<number> {
  const timezone = cronTimezone(ctx);
  const cron = await loadCron();
  const store = await openJobStore(ctx, cron);
  try {
    return await body({ cron, store, timezone, now: Date.now });
  } finally {
    await store.close();
  }
}

/** The job `id`; when there is none, says so on stderr and resolves undefined. */
export async function findJob(
  ctx: CommandContext,
  store: JobStore,
  id: string,
): Promise<CronJob | undefined> {
  const job = await store.get(id);
  if (job === undefined) noJob(ctx, id);
  return job;
}

/** Says there is no job `id` on stderr; returns the exit code for it (1). */
export function noJob(ctx: CommandContext, id: string): number {
  ctx.stderr.write(`hermes cron: no job ${id} (see: hermes cron list)\n`);
  return ExitCode.failure;
}

/** The exit code of an unknown job. */
export const NO_JOB = ExitCode.failure;
