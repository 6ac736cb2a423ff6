/**
 * `hermes cron run <id>` and `hermes cron tick`: running jobs from the command line through the
 * same cron service the gateway runs (`createCronService` in `@hermes/runtime`: the scheduler,
 * the job executor, a real agent, and — with no gateway to deliver — deliveries queued for the
 * gateway's next start). While a gateway runs, `run` only marks the job due, so the gateway runs
 * it (and delivers through its own adapters) at its next tick.
 */
import { ExitCode } from '@hermes/config';
import type { CronJob, RunRecord } from '@hermes/cron';
import type { CommandContext } from '../../command-context.js';
import { type CronSession, findJob, NO_JOB } from './cron-context.js';
import { runLine } from './cron-format.js';

type RuntimeModule = typeof import('@hermes/runtime');
type CronService = ReturnType<RuntimeModule['createCronService']>;

const FAILED = new Set(['error', 'blocked']);

/**
 * Warnings of the scheduler on stderr; its routine notes are not printed. Once interrupted, its
 * warning that jobs were still running when it stopped is left out: this command waits for the
 * aborted run to be recorded before it exits.
 */
function stderrLog(ctx: CommandContext, interrupted: () => boolean) {
  return {
    warn: (message: string) => {
      if (!interrupted()) ctx.stderr.write(`hermes cron: warning: ${message}\n`);
    },
    info: () => undefined,
  };
}

/** Builds the cron service on this home's configuration, runs `body`, closes the service. */
async function withService(
  ctx: CommandContext,
  runtime: RuntimeModule,
  body: (service: CronService) => Promise<number>,
): Promise<number> {
  const config = await runtime.loadHermesConfig({ hermesHome: ctx.hermesHome, env: ctx.env });
  let interrupted = false;
  // A job may use the MCP servers config.yaml names, as a chat does.
  const hub = await runtime.startMcpForConfig(config, { logger: mcpLog(ctx) });
  // Under `storage: postgres` the jobs and the runs' sessions live in the shared database.
  const shared = runtime.usesPostgres(config);
  const sessions = shared ? await runtime.openSessionStoreFor(config, 'hermes-cron') : undefined;
  const jobs = shared ? await runtime.openJobStoreFor(config, 'hermes-cron') : undefined;
  const runner = new runtime.AgentCronRunner(config, {
    ...(sessions ? { store: sessions } : {}),
    extras: () => {
      const mcp = runtime.mcpAgentTools(hub);
      return { tools: mcp.tools, toolsets: mcp.toolsets };
    },
  });
  const service = runtime.createCronService(config, {
    runner,
    ...(jobs ? { store: jobs } : {}),
    log: stderrLog(ctx, () => interrupted),
  });
  // Ctrl-C (or the embedder's signal) stops the scheduler at once: the running job's signal is
  // aborted and its run is recorded as a failure, not left leased until the lease expires.
  const stop = () => {
    if (interrupted) return;
    interrupted = true;
    ctx.stderr.write('hermes cron: interrupted; stopping the running job\n');
    void service.scheduler.stop({ graceMs: 0 });
  };
  process.once('SIGINT', stop);
  ctx.signal?.addEventListener('abort', stop, { once: true });
  try {
    return await body(service);
  } finally {
    process.off('SIGINT', stop);
    ctx.signal?.removeEventListener('abort', stop);
    await service.close();
    await jobs?.close();
    await sessions?.close();
    await hub?.close();
  }
}

/** MCP servers that fail to start are named on stderr; the job runs without them. */
function mcpLog(ctx: CommandContext) {
  const warn = (message: string) => ctx.stderr.write(`hermes cron: ${message}\n`);
  return { info: () => undefined, warn, error: warn };
}

function printRun(ctx: CommandContext, run: RunRecord, job: CronJob): void {
  ctx.stdout.write(`${runLine(run, job.name)}\n`);
  if (run.deliveryError) ctx.stdout.write(`Delivery: ${run.deliveryError}\n`);
  if (run.status === 'silent') {
    ctx.stdout.write('The answer was [SILENT]: nothing delivered.\n');
  } else if (run.output.trim() !== '') {
    ctx.stdout.write(`\n${run.output.trimEnd()}\n`);
  }
}

/** Marks `job` due now for the running gateway. */
async function markDue(ctx: CommandContext, session: CronSession, job: CronJob): Promise<number> {
  if (!job.enabled) {
    ctx.stderr.write(
      `hermes cron: job ${job.id} is paused and the running gateway runs only enabled jobs; ` +
        `resume it first: hermes cron resume ${job.id}\n`,
    );
    return ExitCode.failure;
  }
  const now = session.now();
  await session.store.update(job.id, { nextRunAt: now }, now);
  ctx.stdout.write(
    `A gateway is running: cron job ${job.id} (${job.name}) is due now and the gateway runs it ` +
      `within a minute. See the result with: hermes cron runs ${job.id}\n`,
  );
  return ExitCode.ok;
}

/** `run <id>`: in the foreground, or — a gateway running — marked due for it. */
export async function runJob(
  ctx: CommandContext,
  session: CronSession,
  id: string,
): Promise<number> {
  const job = await findJob(ctx, session.store, id);
  if (job === undefined) return NO_JOB;
  const runtime = await import('@hermes/runtime');
  if (runtime.isGatewayRunning(ctx.hermesHome)) return markDue(ctx, session, job);
  return withService(ctx, runtime, async (service) => {
    ctx.stderr.write(`Running cron job ${id} (${job.name}) now…\n`);
    const run = await service.scheduler.runNow(id);
    if (run === undefined) {
      ctx.stderr.write(`hermes cron: job ${id} is running elsewhere right now (or was removed)\n`);
      return ExitCode.failure;
    }
    printRun(ctx, run, job);
    return FAILED.has(run.status) ? ExitCode.failure : ExitCode.ok;
  });
}

/**
 * `tick`: runs every due job once, one line each; exit 1 when any failed. With a gateway running
 * it runs nothing: the gateway's own tick runs them and delivers through its adapters at once,
 * where a run here could only queue its delivery for the gateway's next start.
 */
export async function tickJobs(ctx: CommandContext, session: CronSession): Promise<number> {
  const runtime = await import('@hermes/runtime');
  if (runtime.isGatewayRunning(ctx.hermesHome)) {
    ctx.stdout.write(
      'A gateway is running: it runs due jobs itself every minute, so none was run here.\n',
    );
    return ExitCode.ok;
  }
  return withService(ctx, runtime, async (service) => {
    const runs = await service.scheduler.tick();
    if (runs.length === 0) {
      ctx.stdout.write('No cron jobs are due.\n');
      return ExitCode.ok;
    }
    const names = new Map((await session.store.list()).map((job) => [job.id, job.name]));
    for (const run of runs) ctx.stdout.write(`${runLine(run, names.get(run.jobId))}\n`);
    return runs.some((run) => FAILED.has(run.status)) ? ExitCode.failure : ExitCode.ok;
  });
}
