/**
 * `hermes storage [status]|migrate|copy`: where sessions, cron jobs and the gateway's state live
 * (`storage:` in config.yaml, `HERMES_DATABASE_URL`), bringing a database's tables up to date,
 * and moving a SQLite history into PostgreSQL. Passwords in URLs are never printed.
 */
import { existsSync } from 'node:fs';
import { ExitCode } from '@hermes/config';
import { isHermesError } from '@hermes/protocol';
import type { HermesConfig } from '@hermes/runtime';
import type { PostgresDatabase } from '@hermes/state/postgres';
import type { CommandContext } from '../command-context.js';
import { parseCommandArgs, stringOption, usageFailure, withUsage } from '../config/command-args.js';

const USAGE = `Usage: hermes storage <subcommand>

  status                            the backend in use and where (default)
  migrate                           create or update every table (sessions, cron,
                                    gateway) in the configured database
  copy --from sqlite --to postgres  copy every session and message of state.db into
                                    the configured PostgreSQL database, then check the
                                    counts; and every cron job with its runs and pending
                                    deliveries; re-run to finish an interrupted copy

Select PostgreSQL in config.yaml:
  storage:
    backend: postgres
    url: postgres://user:password@host:5432/hermes
or with HERMES_DATABASE_URL. SQLite (HERMES_HOME/state.db) is the default.
`;

/** Runs `hermes storage`; resolves to the exit code. */
export function run(args: readonly string[], ctx: CommandContext): Promise<number> {
  return withUsage(ctx, 'storage', async () => {
    const { values, positionals } = parseCommandArgs(args, {
      help: { type: 'boolean', short: 'h' },
      from: { type: 'string' },
      to: { type: 'string' },
    });
    const [sub = 'status', ...extra] = positionals;
    if (values.help || sub === 'help') {
      ctx.stdout.write(USAGE);
      return ExitCode.ok;
    }
    if (extra.length > 0) return usageFailure(ctx, 'storage', `unexpected '${extra[0]}'`);
    try {
      const runtime = await import('@hermes/runtime');
      const config = await runtime.loadHermesConfig({ hermesHome: ctx.hermesHome, env: ctx.env });
      switch (sub) {
        case 'status':
          return status(config, ctx);
        case 'migrate':
          return await migrate(config, ctx);
        case 'copy': {
          const from = stringOption(values, 'from');
          const to = stringOption(values, 'to');
          if (from !== 'sqlite' || to !== 'postgres') {
            return usageFailure(ctx, 'storage', "'copy' supports --from sqlite --to postgres");
          }
          return await copy(config, ctx);
        }
        default:
          return usageFailure(ctx, 'storage', `unknown subcommand '${sub}'`);
      }
    } catch (error) {
      if (!isHermesError(error)) throw error;
      ctx.stderr.write(`hermes storage: ${error.message}\n`);
      return ExitCode.failure;
    }
  });
}

async function status(config: HermesConfig, ctx: CommandContext): Promise<number> {
  const runtime = await import('@hermes/runtime');
  if (!runtime.usesPostgres(config)) {
    const { defaultStatePath } = await import('@hermes/state');
    ctx.stdout.write(`backend: sqlite\ndatabase: ${defaultStatePath(config.hermesHome)}\n`);
    return ExitCode.ok;
  }
  const { redactPostgresUrl } = await import('@hermes/state/postgres');
  ctx.stdout.write(
    `backend: postgres\ndatabase: ${redactPostgresUrl(config.storage.url)}\nschema: ${runtime.schemaOf(config, config.storage)}\n`,
  );
  return ExitCode.ok;
}

async function migrate(config: HermesConfig, ctx: CommandContext): Promise<number> {
  const { migrateStorage } = await import('@hermes/runtime');
  const report = await migrateStorage(config);
  const schema = report.schema ? ` (schema ${report.schema})` : '';
  for (const step of report.applied) ctx.stdout.write(`applied: ${step}\n`);
  ctx.stdout.write(
    report.applied.length > 0
      ? `${report.backend} ${report.where}${schema}: ${report.applied.length} migration(s) applied\n`
      : `${report.backend} ${report.where}${schema}: up to date\n`,
  );
  return ExitCode.ok;
}

async function copy(config: HermesConfig, ctx: CommandContext): Promise<number> {
  const runtime = await import('@hermes/runtime');
  if (!runtime.usesPostgres(config)) {
    ctx.stderr.write(
      'hermes storage: copy needs a PostgreSQL target: set storage.backend: postgres and storage.url in config.yaml, or HERMES_DATABASE_URL.\n',
    );
    return ExitCode.failure;
  }
  const [{ openSessionStore, defaultStatePath }, { PostgresSessionStore }] = await Promise.all([
    import('@hermes/state'),
    import('@hermes/state/postgres'),
  ]);
  const path = defaultStatePath(config.hermesHome);
  if (!existsSync(path)) {
    ctx.stderr.write(`hermes storage: there is no ${path} to copy from.\n`);
    return ExitCode.failure;
  }
  const source = openSessionStore({ hermesHome: config.hermesHome, readonly: true });
  const database = await runtime.connectPostgres(config, 'hermes-storage-copy');
  try {
    const target = await PostgresSessionStore.open(database);
    const report = await runtime.copySessions(source, target);
    ctx.stdout.write(
      `copied ${report.copied} session(s), ${report.skipped} already there; ${report.sessions} session(s) and ${report.messages} message(s) in ${path}\n`,
    );
    await copyCronJobs(config, database, ctx);
    if (report.mismatched.length > 0) {
      ctx.stderr.write(
        `hermes storage: message counts differ for ${report.mismatched.length} session(s): ${report.mismatched.slice(0, 10).join(', ')}; nothing was deleted, run the copy again\n`,
      );
      return ExitCode.failure;
    }
    ctx.stdout.write(
      `verified: every session has the same number of messages in ${database.label}\n`,
    );
    return ExitCode.ok;
  } finally {
    await source.close();
    await database.close();
  }
}

/** The cron jobs of `state.db` (with runs and pending deliveries) into the same database. */
async function copyCronJobs(
  config: HermesConfig,
  database: PostgresDatabase,
  ctx: CommandContext,
): Promise<void> {
  const [runtime, { openSqliteJobStore }, { PostgresJobStore }] = await Promise.all([
    import('@hermes/runtime'),
    import('@hermes/cron'),
    import('@hermes/cron/postgres'),
  ]);
  const source = openSqliteJobStore(config.hermesHome);
  try {
    const report = await runtime.copyJobs(source, await PostgresJobStore.open(database));
    ctx.stdout.write(
      `copied ${report.copied} cron job(s), ${report.skipped} already there (${report.runs} run record(s), ${report.pending} pending delivery record(s))\n`,
    );
  } finally {
    await source.close();
  }
}
