/**
 * The composition both binaries share (`hermes-gateway run`, `hermes gateway run`): from one
 * {@link HermesConfig}, every enabled adapter, the gateway's SQLite store, the agent factory,
 * the redacting `gateway.log`, and the {@link Gateway} that ties them together.
 */
import {
  Gateway,
  type GatewayStore,
  type PlatformAdapter,
  type SendTarget,
  SqliteGatewayStore,
} from '@hermes/gateway';
import type { McpHub } from '@hermes/mcp';
import { HermesError } from '@hermes/protocol';
import {
  type AgentFactoryDeps,
  createAgentFactory,
  type RuntimeAgentFactory,
} from '../agents/agent-factory.js';
import { agentPluginParts } from '../agents/agent-plugins.js';
import type { HermesConfig } from '../config/hermes-config.js';
import type { CronAgentExtras } from '../cron/agent-cron-runner.js';
import type { CronService } from '../cron/cron-service.js';
import { createLogger, type Logger, type LogLevel } from '../logging/logger.js';
import { mcpAgentTools } from '../mcp/mcp-agent-tools.js';
import { syncMcpTools } from '../mcp/mcp-registry-sync.js';
import type { GatewayStorage } from '../storage/gateway-storage.js';
import { buildAdapters } from './gateway-adapters.js';
import { createGatewayCron, type GatewayCron, gatewayJobsApi } from './gateway-cron.js';
import type { GatewayPlugins } from './gateway-plugins.js';
import { gatewaySecrets } from './gateway-secrets.js';

/** The file under `HERMES_HOME/logs/` the gateway writes. */
export const GATEWAY_LOG_FILE = 'gateway.log';

/** The code of the error thrown when `platforms:` enables nothing the gateway can serve. */
export const NO_ADAPTER_CODE = 'runtime.gateway_no_adapter';

/** What {@link buildGatewayServer} takes besides the configuration. */
export interface GatewayServerDeps {
  /** Passed to {@link createAgentFactory} (the agents' working directory, extra tools). */
  readonly agents?: AgentFactoryDeps;
  /**
   * The plugins `loadGatewayPlugins` loaded: their tools, hooks and strategies go to every agent
   * (in place of `agents.plugins`), their adapters serve the platforms they were created for.
   */
  readonly plugins?: GatewayPlugins;
  /**
   * The MCP servers config.yaml names, started (`startMcpForConfig`): every agent gets their
   * tools, in their `mcp-<server>` toolsets. The server closes the hub when it closes.
   */
  readonly mcp?: McpHub;
  /** The log to write to; default {@link createGatewayLog} at `logLevel`. */
  readonly log?: Logger;
  /** Default `info` (`debug` with `HERMES_DEBUG`). */
  readonly logLevel?: LogLevel;
  /** The gateway's `profile` (session keys) when the app chose one with `--profile`. */
  readonly profile?: string;
  /** `false`: no cron clock and no `cronjob` tool backed by it (default: both). */
  readonly cron?: false;
  /**
   * The stores on a shared PostgreSQL database (`openGatewayStorage`), when `storage:` selects
   * it: sessions, jobs, the gateway store, the cross-process lane. The server closes it last.
   * Default: SQLite in `HERMES_HOME/state.db` and an in-process lane.
   */
  readonly storage?: GatewayStorage;
}

/** A built, not yet started, gateway and everything it owns. */
export interface GatewayServer {
  readonly gateway: Gateway;
  /** One per enabled platform this build serves, in `platforms:` order. */
  readonly adapters: readonly PlatformAdapter[];
  readonly store: GatewayStore;
  readonly agents: RuntimeAgentFactory;
  /** Writes `HERMES_HOME/logs/gateway.log` (and warnings to `errors.log`), secrets masked. */
  readonly log: Logger;
  /** One line per enabled platform nothing here serves. */
  readonly warnings: readonly string[];
  /**
   * The cron service (job store, executor, scheduler) whose answers go through
   * `gateway.deliver`; undefined with `deps.cron: false`.
   */
  readonly cron: CronService | undefined;
  /**
   * Starts the gateway (`gateway.start()`), then writes `HERMES_HOME/gateway.pid`, sends the
   * cron deliveries queued while no gateway ran and starts the cron clock (every
   * `cron.tick_seconds`).
   */
  start(): Promise<void>;
  /**
   * Stops the cron clock first (running jobs get up to 10 s, then are aborted), then the
   * gateway (drain up to `drainTimeoutMs`, default `gateway.drain_timeout_seconds`), then closes
   * the agent factory's shared parts and removes `gateway.pid`. Idempotent.
   */
  close(options?: { readonly drainTimeoutMs?: number }): Promise<void>;
}

/** The message of {@link NO_ADAPTER_CODE}: what to set to serve the OpenAI-compatible API. */
export const NO_ADAPTER_MESSAGE =
  'No platform adapter is enabled, so the gateway has nothing to serve. Enable the ' +
  'OpenAI-compatible API server with API_SERVER_ENABLED=true and API_SERVER_KEY=<16+ characters> ' +
  '(in the environment or HERMES_HOME/.env), or `platforms.api_server.enabled: true` with its ' +
  '`key` in config.yaml.';

/**
 * The gateway's log: `HERMES_HOME/logs/gateway.log` (warnings also in `errors.log`), every
 * credential of `config` masked.
 */
export function createGatewayLog(config: HermesConfig, level?: LogLevel): Logger {
  return createLogger({
    hermesHome: config.hermesHome,
    component: 'gateway',
    file: GATEWAY_LOG_FILE,
    secrets: gatewaySecrets(config),
    ...(level ? { level } : {}),
  });
}

/**
 * Builds the gateway for `config`. Adapters are built first (nothing is opened when one is
 * refused) — the built-in ones and those in `deps.plugins`; then the store
 * (`HERMES_HOME/state.db`) and the agent factory (with the plugins' parts). An enabled platform
 * no adapter serves becomes a warning (logged too) and the rest carry on.
 *
 * @throws HermesError {@link NO_ADAPTER_CODE} when no enabled platform can be served, what an
 *   adapter refuses (`gateway.api_key_missing`, `gateway.api_key_too_short`, a
 *   `ValidationError` for a bad `platforms.<name>` entry), `config.no_provider` when no
 *   model provider is configured, and `config.unknown_memory_provider` /
 *   `config.unknown_context_engine` when the selected strategy is not among the plugins'.
 */
export function buildGatewayServer(
  config: HermesConfig,
  deps: GatewayServerDeps = {},
): GatewayServer {
  const log = deps.log ?? createGatewayLog(config, deps.logLevel);
  let gateway: Gateway | undefined;
  const deliver = async (platform: string, target: SendTarget, text: string) => {
    if (!gateway) throw new HermesError('gateway.not_started', 'The gateway is not built yet.');
    return gateway.deliver(platform, target, text);
  };
  let cron: GatewayCron | undefined;
  const built = buildAdapters(
    config.platforms,
    {
      log,
      health: () => gateway?.health() ?? { status: 'starting' },
      deliver,
      // Late-bound: the cron service (and state.db) opens only once the adapters are valid.
      ...(deps.cron === false ? {} : { jobs: gatewayJobsApi(config, () => cron, log) }),
    },
    deps.plugins,
  );
  for (const warning of built.warnings) log.warn(warning);
  if (built.adapters.length === 0) throw new HermesError(NO_ADAPTER_CODE, NO_ADAPTER_MESSAGE);

  cron =
    deps.cron === false
      ? undefined
      : createGatewayCron(config, deliver, log, cronExtras(config, deps), deps.storage);

  let agents: RuntimeAgentFactory;
  let store: GatewayStore;
  try {
    agents = createAgentFactory(config, {
      ...agentDeps(deps),
      ...(deps.storage ? { store: deps.storage.sessions } : {}),
      cronjob: cron?.cronjob ?? false,
      notify: (origin, text) =>
        deliver(
          origin.platform,
          {
            chatId: origin.chatId,
            ...(origin.threadId ? { threadId: origin.threadId } : {}),
          },
          text,
        ),
    });
  } catch (error) {
    void cron?.stop(0);
    throw error;
  }
  try {
    store = deps.storage?.store ?? SqliteGatewayStore.open({ hermesHome: config.hermesHome });
  } catch (error) {
    void agents.close();
    void cron?.stop(0);
    throw error;
  }
  // Agents live for hours and share one registry: a changed MCP tool list must reach it.
  const stopMcpSync = deps.mcp ? syncMcpTools(agents.shared.registry, deps.mcp) : undefined;
  const settings = deps.profile ? { ...config.gateway, profile: deps.profile } : config.gateway;
  gateway = new Gateway({
    settings,
    platforms: config.platforms,
    adapters: built.adapters,
    agentFactory: agents.factory,
    store,
    hermesHome: config.hermesHome,
    log,
    ...(deps.storage
      ? { lane: deps.storage.lane, pairing: deps.storage.pairing, sharedSessions: true }
      : {}),
  });
  const owned = gateway;
  let closing: Promise<void> | undefined;
  return {
    gateway: owned,
    adapters: built.adapters,
    store,
    agents,
    log,
    warnings: built.warnings,
    cron: cron?.service,
    async start() {
      await owned.start();
      if (closing) return;
      await cron?.start();
    },
    close(options = {}) {
      closing ??= (async () => {
        try {
          // Before the drain: a stuck job must not hold up the restart.
          await cron?.stop(options.drainTimeoutMs ?? config.gateway.drainTimeoutMs);
          await owned.stop(options);
        } finally {
          stopMcpSync?.();
          await agents.close();
          await deps.mcp?.close();
          await deps.storage?.close();
        }
      })();
      return closing;
    },
  };
}

/**
 * What a scheduled job's agent gets besides the built-ins, as every chat agent does: the app's
 * extra tools, the MCP servers' tools as they stand at the run, and the plugins' parts.
 */
function cronExtras(config: HermesConfig, deps: GatewayServerDeps): () => CronAgentExtras {
  const plugins = deps.plugins ? agentPluginParts(config, deps.plugins.loaded) : undefined;
  return () => {
    const mcp = mcpAgentTools(deps.mcp);
    return {
      tools: [...(deps.agents?.tools ?? []), ...mcp.tools],
      toolsets: mcp.toolsets,
      ...(plugins ? { plugins } : {}),
    };
  };
}

/** The agent factory's dependencies: the app's, the plugins', and the MCP servers' tools. */
function agentDeps(deps: GatewayServerDeps): AgentFactoryDeps {
  const mcp = mcpAgentTools(deps.mcp);
  const tools = [...(deps.agents?.tools ?? []), ...mcp.tools];
  return {
    ...deps.agents,
    ...(deps.plugins ? { plugins: deps.plugins.loaded } : {}),
    ...(tools.length ? { tools } : {}),
    ...(mcp.toolsets.length ? { extraToolsets: mcp.toolsets } : {}),
  };
}
