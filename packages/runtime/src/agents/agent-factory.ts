/**
 * The gateway's {@link AgentFactory} over one configuration. Everything that does not belong to
 * one conversation is built once and shared by every agent — the session store (one SQLite
 * connection), the tool registry and its resolved schemas, the skills library, the loop-served
 * tools and the approval settings — so an agent kept in the gateway's cache holds only its own
 * state: the Agent, its provider chain (fallback state is per turn), its context engine, its
 * view of the memory files and its execution environment, which starts nothing until a tool
 * runs a command and is released by `AgentHandle.close()`.
 */
import { homedir } from 'node:os';
import type { AgentFactory, AgentHandle, AgentOrigin, AgentRequest } from '@hermes/gateway';
import {
  type CreatedAgent,
  createSharedComponents,
  type OwnedSharedComponents,
  type SharedAgentComponents,
  sideTaskToolOptions,
} from '@hermes/loop';
import { HermesError } from '@hermes/protocol';
import { findBundledSkillsDir } from '@hermes/skills';
import type { SessionStore } from '@hermes/state';
import type { ToolSpec } from '@hermes/tools';
import type { HermesConfig } from '../config/hermes-config.js';
import type { CronjobSetup } from '../cron/cronjob-loop-tool.js';
import type { LoadedPlugins } from '../plugins/load-plugins.js';
import { webSearchOption } from '../web/web-search-config.js';
import { agentCronjob } from './agent-cronjob.js';
import { agentPluginParts, NO_PLUGIN_PARTS } from './agent-plugins.js';
import { buildAgent } from './build-agent.js';
import { hostAuxiliary } from './host-auxiliary.js';
import { toolsetsFor } from './platform-toolsets.js';

/** The code of the error a closed factory throws. */
export const FACTORY_CLOSED_CODE = 'runtime.factory_closed';

/** What the factory takes besides the configuration. */
export interface AgentFactoryDeps {
  /**
   * The working directory of every agent (system prompt, local backend). Default
   * `terminal.cwd`, else the user's home directory.
   */
  readonly cwd?: string;
  /** Extra tools, registered once in the shared registry. */
  readonly tools?: readonly ToolSpec[];
  /** A session store the app already opened; it stays the app's to close. */
  readonly store?: SessionStore;
  /** The loaded plugins (`loadConfiguredPlugins`): their tools, hooks and strategies. */
  readonly plugins?: LoadedPlugins;
  /** Toolsets to enable for every agent besides the configured ones (`mcp-<server>`, …). */
  readonly extraToolsets?: readonly string[];
  /**
   * The store and run-now of every agent's `cronjob` tool (the gateway's cron service), or
   * `false` for no `cronjob` tool. Default: a store over `HERMES_HOME/state.db`, opened at the
   * first call and closed with the factory (`run` then waits for the next tick).
   */
  readonly cronjob?: CronjobSetup | false;
  /**
   * Sends a background review's one line to the chat it came from (`learning.notify`); the
   * gateway passes its delivery. Without it, or with `notify` off, the line is only logged.
   */
  readonly notify?: (origin: AgentOrigin, text: string) => Promise<void>;
}

/** A factory, the parts its agents share, and how to release everything. */
export interface RuntimeAgentFactory {
  readonly factory: AgentFactory;
  /** The shared session store, registry, skills library and settings. */
  readonly shared: SharedAgentComponents;
  /** Agents built and not closed yet. */
  readonly openAgents: number;
  /**
   * Closes every agent still open, then the shared parts (the session store unless the app
   * passed its own). Later requests throw `runtime.factory_closed`. Idempotent.
   */
  close(): Promise<void>;
}

/**
 * Builds the shared parts for `config` and returns the factory the gateway asks for agents.
 * Each request gets an agent on `request.sessionId` (or a new session) with platform
 * `request.platform`, the `interactive` approval surface answered by `request.approvalHandler`,
 * `request.model` in place of the configured model, and the platform's toolsets
 * ({@link toolsetsFor}). A command that needs approval waits `config.gateway.approvalTimeoutMs`
 * for its answer (the `approvals.timeout` of the CLI does not apply to chats).
 *
 * @throws HermesError `config.no_provider` when the configuration names no usable provider (the
 * gateway cannot run agents, so it should not start), `config.unknown_memory_provider` /
 * `config.unknown_context_engine` when a selected strategy is not provided.
 */
export function createAgentFactory(
  config: HermesConfig,
  deps: AgentFactoryDeps = {},
): RuntimeAgentFactory {
  if (!config.provider) {
    throw new HermesError(
      'config.no_provider',
      config.providerProblem ?? 'no provider is configured',
    );
  }
  const plugins = deps.plugins ? agentPluginParts(config, deps.plugins) : NO_PLUGIN_PARTS;
  const bundledDir = findBundledSkillsDir();
  const tools = [...(deps.tools ?? []), ...plugins.tools];
  const cwd = deps.cwd ?? terminalCwd(config) ?? homedir();
  const side = hostAuxiliary(config);
  const owned: OwnedSharedComponents = createSharedComponents({
    hermesHome: config.hermesHome,
    skills: { dirs: config.skillDirs, ...(bundledDir ? { bundledDir } : {}) },
    ...(tools.length ? { tools } : {}),
    ...(deps.store ? { store: deps.store } : {}),
    ...webSearchOption(config),
    ...sideTaskToolOptions(side.slots, cwd),
  });
  for (const spec of plugins.replacing) owned.registry.register(spec, { replace: true });
  // The registry refuses `cronjob` in generic dispatch, so the loop serves it with the others.
  const cronjob = agentCronjob(config, deps.cronjob, 'gateway');
  // A chat answers slower than a terminal: the guard hands the handler its own timeout, so the
  // gateway's wait (`gateway.approval_timeout_seconds`, 5 min) replaces `approvals.timeout`.
  const shared: OwnedSharedComponents = {
    ...owned,
    loopTools: cronjob ? [...owned.loopTools, cronjob.tool] : owned.loopTools,
    approvalSettings: {
      ...owned.approvalSettings,
      timeoutSeconds: config.gateway.approvalTimeoutMs / 1_000,
    },
  };
  const open = new Set<AgentHandle>();
  let closed = false;

  const factory: AgentFactory = (request: AgentRequest) => {
    if (closed) throw new HermesError(FACTORY_CLOSED_CODE, 'The agent factory is closed.');
    const toolsets = toolsetsFor(config, request.platform);
    const created = buildAgent(config, {
      platform: request.platform,
      cwd,
      surface: 'interactive',
      approvalHandler: request.approvalHandler,
      shared,
      plugins,
      ...(deps.extraToolsets?.length ? { extraToolsets: deps.extraToolsets } : {}),
      ...(request.sessionId ? { sessionId: request.sessionId } : {}),
      ...(request.model ? { model: request.model } : {}),
      ...(request.origin ? { origin: request.origin } : {}),
      ...(toolsets ? { toolsets } : {}),
    });
    notifyReviews(config, created, request.origin, deps.notify);
    const handle = handleOf(created, () => open.delete(handle));
    open.add(handle);
    return handle;
  };

  return {
    factory,
    shared,
    get openAgents() {
      return open.size;
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.allSettled([...open].map((handle) => handle.close()));
      await shared.close();
      await cronjob?.close();
      await side.close();
    },
  };
}

/** With `learning.notify`, each background review's line goes to the agent's chat. */
function notifyReviews(
  config: HermesConfig,
  created: CreatedAgent,
  origin: AgentOrigin | undefined,
  notify: AgentFactoryDeps['notify'],
): void {
  if (!config.learning?.notify || !origin || !notify) return;
  created.learning.onReview((line) => {
    // A chat that cannot be reached must not disturb the agent; the delivery ledger retries.
    notify(origin, `🧠 ${line}`).catch(() => {});
  });
}

/** An idempotent handle: the first `close()` releases the agent, later ones wait for it. */
function handleOf(created: CreatedAgent, onClose: () => void): AgentHandle {
  let closing: Promise<void> | undefined;
  return {
    agent: created.agent,
    auxiliaryUsage: () => created.auxiliary.usage(),
    learn: () => created.learning.runNow(),
    rollback: (args) => created.checkpoints.command(args),
    close() {
      closing ??= (async () => {
        onClose();
        await created.close();
      })();
      return closing;
    },
  };
}

function terminalCwd(config: HermesConfig): string | undefined {
  const cwd = config.terminal?.cwd;
  return typeof cwd === 'string' && cwd.trim() !== '' ? cwd : undefined;
}
