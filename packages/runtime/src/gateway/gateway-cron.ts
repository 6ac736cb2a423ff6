/**
 * The gateway's cron clock: a cron service whose answers go out through the gateway's delivery
 * step, started after the adapters connect (first the deliveries queued while no gateway ran,
 * then the ticks every `cron.tick_seconds`) and stopped before the gateway drains, so a stuck
 * job cannot hold up a restart.
 */

import { deliverPendingJobs, type RunRecord } from '@hermes/cron';
import type { JobsApi, SendTarget } from '@hermes/gateway';
import { HermesError } from '@hermes/protocol';
import { cronSettingsOf } from '../config/cron-section.js';
import type { HermesConfig } from '../config/hermes-config.js';
import { AgentCronRunner, type CronAgentExtras } from '../cron/agent-cron-runner.js';
import { cronJobsApi } from '../cron/cron-jobs-api.js';
import { type CronService, createCronService } from '../cron/cron-service.js';
import type { CronjobSetup } from '../cron/cronjob-loop-tool.js';
import { GatewayCronDelivery } from '../cron/gateway-cron-delivery.js';
import { removeGatewayPid, writeGatewayPid } from '../cron/gateway-pid.js';
import type { Logger } from '../logging/logger.js';
import type { GatewayStorage } from '../storage/gateway-storage.js';

/** The longest a stopping gateway waits for running jobs before aborting them. */
export const GATEWAY_CRON_STOP_GRACE_MS = 10_000;

/** The gateway's cron service and what it does at the gateway's start and stop. */
export interface GatewayCron {
  readonly service: CronService;
  /** What every agent's `cronjob` tool uses: the service's store; `run` starts the job now. */
  readonly cronjob: CronjobSetup;
  /** Sends the queued deliveries, then starts ticking. */
  start(): Promise<void>;
  /** Stops the scheduler (running jobs get up to `graceMs`), then closes the store. */
  stop(graceMs: number): Promise<void>;
}

/** Builds the cron service of a gateway whose `deliver` is given (late-bound: not built yet). */
export function createGatewayCron(
  config: HermesConfig,
  deliver: (platform: string, target: SendTarget, text: string) => Promise<void>,
  log: Logger,
  extras?: () => CronAgentExtras,
  storage?: Pick<GatewayStorage, 'jobs' | 'sessions'>,
): GatewayCron {
  const cronLog = log.child('cron');
  const sessions = storage ? { store: storage.sessions } : {};
  const service = createCronService(config, {
    delivery: new GatewayCronDelivery(deliver),
    log: cronLog,
    // The storage's pool outlives the service: the gateway server closes it last.
    ...(storage ? { store: storage.jobs } : {}),
    ...(extras || storage
      ? { runner: new AgentCronRunner(config, { ...sessions, ...(extras ? { extras } : {}) }) }
      : {}),
  });
  const tickMs = cronSettingsOf(config).tickSeconds * 1_000;
  return {
    service,
    cronjob: {
      store: service.store,
      // In the background: a chat turn must not wait out a whole job. The answer arrives in the
      // job's delivery target like any scheduled run's.
      runNow: async (id) => {
        const run = service.scheduler.runNow(id).then(
          (record: RunRecord | undefined) => {
            if (!record) cronLog.warn('cron: run now found the job busy or gone', { job: id });
          },
          (error: unknown) => cronLog.warn('cron: run now failed', { job: id, error }),
        );
        void run;
        return { started: id };
      },
    },
    async start() {
      writeGatewayPid(config.hermesHome);
      const pending = await deliverPendingJobs(service.store, service.delivery, { log: cronLog });
      if (pending.sent + pending.failed + pending.dropped > 0) {
        cronLog.info('cron: pending deliveries', { ...pending });
      }
      service.scheduler.start(tickMs);
    },
    async stop(graceMs) {
      try {
        await service.close({ graceMs: Math.min(graceMs, GATEWAY_CRON_STOP_GRACE_MS) });
      } finally {
        removeGatewayPid(config.hermesHome);
      }
    },
  };
}

/**
 * `/api/jobs` on the gateway's API server, over its cron service (`run` starts in background).
 * `cron` is read at each request: the adapters are built before the service opens `state.db`.
 */
export function gatewayJobsApi(
  config: HermesConfig,
  cron: () => GatewayCron | undefined,
  log: Logger,
): JobsApi {
  let api: JobsApi | undefined;
  const current = (): JobsApi => {
    const service = cron()?.service;
    if (!service) throw new HermesError('gateway.not_started', 'The cron service is not running.');
    api ??= cronJobsApi({
      store: service.store,
      scheduler: service.scheduler,
      timezone: cronSettingsOf(config).timezone,
      onRunError: (job, error) => log.child('cron').warn('cron: run now failed', { job, error }),
    });
    return api;
  };
  return {
    list: () => current().list(),
    get: (id) => current().get(id),
    create: (body) => current().create(body),
    update: (id, body) => current().update(id, body),
    remove: (id) => current().remove(id),
    pause: (id) => current().pause(id),
    resume: (id) => current().resume(id),
    run: (id) => current().run(id),
  };
}
