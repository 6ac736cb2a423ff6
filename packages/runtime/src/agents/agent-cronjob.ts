/**
 * Which `cronjob` tool an agent gets. A job's own agent (platform `cron`) never gets one; an
 * agent given a {@link CronjobSetup} uses its store (the gateway's cron service); any other
 * agent the CLI builds gets one that opens `HERMES_HOME/state.db` at the tool's first call and
 * closes it with the agent.
 */
import type { CronSettings } from '../config/cron-section.js';
import { cronSettingsOf } from '../config/cron-section.js';
import type { HermesConfig } from '../config/hermes-config.js';
import {
  type CronjobLoopTool,
  type CronjobSetup,
  cronjobLoopTool,
} from '../cron/cronjob-loop-tool.js';
import { openJobStoreFor } from '../storage/open-stores.js';
import { usesPostgres } from '../storage/postgres-connection.js';

/** An agent's `cronjob` loop tool and how to release its store. */
export interface AgentCronjob {
  readonly tool: CronjobLoopTool;
  /** Closes the store when the tool opened its own. */
  close(): Promise<void>;
}

/**
 * The `cronjob` tool for an agent on `platform`: none for `cron` (a job may not schedule jobs)
 * or when `setup` is `false`; over `setup.store` when given; else over a store of its own.
 */
export function agentCronjob(
  config: HermesConfig & { readonly cron?: CronSettings },
  setup: CronjobSetup | false | undefined,
  platform: string,
): AgentCronjob | undefined {
  if (setup === false || platform === 'cron') return undefined;
  const { timezone } = cronSettingsOf(config);
  const tool = cronjobLoopTool({
    hermesHome: config.hermesHome,
    timezone,
    ...(setup ? { store: setup.store } : {}),
    ...(!setup && usesPostgres(config)
      ? { openStore: () => openJobStoreFor(config, 'hermes-cronjob') }
      : {}),
    ...(setup?.runNow ? { runNow: setup.runNow } : {}),
  });
  return { tool, close: () => tool.close() };
}
