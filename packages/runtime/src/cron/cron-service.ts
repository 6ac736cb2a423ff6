/**
 * The cron service of one process: the job store, the executor that runs a job with a real
 * agent ({@link AgentCronRunner}) and the scheduler that claims due jobs. The gateway runs one
 * with its live delivery and its clock; `hermes cron tick|run` build one that queues deliveries
 * for the next gateway start.
 */
import {
  type CronAgentRunner,
  type CronDelivery,
  CronJobExecutor,
  CronScheduler,
  type CronSchedulerLog,
  type JobStore,
  openSqliteJobStore,
  QueueingCronDelivery,
} from '@hermes/cron';
import { cronSettingsOf } from '../config/cron-section.js';
import type { HermesConfig } from '../config/hermes-config.js';
import { AgentCronRunner } from './agent-cron-runner.js';
import { cronSkillLoader } from './cron-skills.js';

/** What {@link createCronService} takes besides the configuration. */
export interface CronServiceOptions {
  /**
   * Where answers go. Default `QueueingCronDelivery`: recorded as pending and sent by the next
   * gateway start (what a process without a gateway does).
   */
  readonly delivery?: CronDelivery;
  /** The job store; default `openSqliteJobStore(config.hermesHome)`, closed by `close()`. */
  readonly store?: JobStore;
  /** Runs a job's agent turn; default {@link AgentCronRunner} over `config`. */
  readonly runner?: CronAgentRunner;
  /** Where the scheduler and executor report what they could not do. */
  readonly log?: CronSchedulerLog;
  /** Milliseconds since the epoch; default `Date.now`. */
  readonly clock?: () => number;
  /** The scheduler's lease owner name; default host, pid and a random suffix. */
  readonly owner?: string;
}

/** A cron service and how to stop it. */
export interface CronService {
  readonly store: JobStore;
  readonly scheduler: CronScheduler;
  readonly executor: CronJobExecutor;
  readonly delivery: CronDelivery;
  /**
   * Stops the scheduler (running jobs get `graceMs`, default 10 s, then are aborted), then closes
   * the store unless the caller passed its own. Idempotent.
   */
  close(options?: { readonly graceMs?: number }): Promise<void>;
}

/**
 * Builds the cron service for `config`: `cron.max_parallel_jobs`, `cron.timezone`,
 * `cron.job_timeout_seconds` and `cron.keep_outputs` applied, skills read through the agents'
 * skills library. Nothing runs until `scheduler.tick()`, `runNow(id)` or `start(ms)`.
 *
 * @throws what opening `HERMES_HOME/state.db` throws.
 */
export function createCronService(
  config: HermesConfig,
  options: CronServiceOptions = {},
): CronService {
  const settings = cronSettingsOf(config);
  const clock = options.clock ?? Date.now;
  const store = options.store ?? openSqliteJobStore(config.hermesHome);
  const delivery = options.delivery ?? new QueueingCronDelivery(store, clock);
  const executor = new CronJobExecutor({
    store,
    agent: options.runner ?? new AgentCronRunner(config),
    delivery,
    hermesHome: config.hermesHome,
    loadSkill: cronSkillLoader(config),
    clock,
    keepOutputs: settings.keepOutputs,
    runTimeoutMs: settings.jobTimeoutSeconds * 1_000,
    ...(options.log ? { log: options.log } : {}),
  });
  const scheduler = new CronScheduler({
    store,
    executor,
    clock,
    maxParallel: settings.maxParallelJobs,
    timezone: settings.timezone,
    ...(options.owner ? { owner: options.owner } : {}),
    ...(options.log ? { log: options.log } : {}),
  });
  let closing: Promise<void> | undefined;
  return {
    store,
    scheduler,
    executor,
    delivery,
    close(closeOptions = {}) {
      closing ??= (async () => {
        try {
          await scheduler.stop(closeOptions);
        } finally {
          if (!options.store) await store.close();
        }
      })();
      return closing;
    },
  };
}
