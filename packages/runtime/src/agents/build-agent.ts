/**
 * "Build an Agent from config": the one place that turns a {@link HermesConfig} into
 * `createAgent`'s input, used by the CLI's chat and demo and by the gateway's agent factory.
 */

import type { ApprovalHandler } from '@hermes/approval';
import {
  type AgentOptions,
  type AuxiliaryModels,
  type CreatedAgent,
  createAgent,
  createSharedComponents,
  type LearningConfig,
  type SharedAgentComponents,
  sideTaskToolOptions,
} from '@hermes/loop';
import { HermesError } from '@hermes/protocol';
import { findBundledSkillsDir } from '@hermes/skills';
import type { SessionStore } from '@hermes/state';
import {
  type ClarifyCallback,
  createWebSearchTool,
  DEFAULT_ENABLED_TOOLSETS,
  type ToolOrigin,
  type ToolSpec,
} from '@hermes/tools';
import type { HermesConfig } from '../config/hermes-config.js';
import type { CronjobSetup } from '../cron/cronjob-loop-tool.js';
import { webSearchBackendFor, webSearchOption } from '../web/web-search-config.js';
import { type AgentCronjob, agentCronjob } from './agent-cronjob.js';
import { type AgentPluginParts, NO_PLUGIN_PARTS } from './agent-plugins.js';
import { compressionSettings, memoryLimits } from './config-settings.js';

/** The code of the error thrown when the configuration names no usable provider. */
export const NO_PROVIDER_CODE = 'config.no_provider';

/** Who rules on commands that need approval. */
export type ApprovalSurface = 'interactive' | 'cron' | 'single_query' | 'subagent';

/** What one agent is built for, on top of the configuration. */
export interface BuildAgentOptions {
  /** Where the user is: `cli`, `telegram`, `api_server`, … (the session's source). */
  readonly platform: string;
  /** The working directory stated in the system prompt (and the local backend's start). */
  readonly cwd: string;
  /** Who rules on approvals: `interactive` asks `approvalHandler`, `single_query` denies. */
  readonly surface: ApprovalSurface;
  /** Continue this stored session; a new one when absent. */
  readonly sessionId?: string;
  /** Replaces the configured model (the gateway's `/model`). */
  readonly model?: string;
  /** The toolsets to enable; default `config.toolsets` (else `hermes-cli`). */
  readonly toolsets?: readonly string[];
  readonly approvalHandler?: ApprovalHandler;
  readonly clarify?: ClarifyCallback;
  /** Extra tools for this agent (not with `shared`: those go to the shared registry). */
  readonly tools?: readonly ToolSpec[];
  /**
   * Toolsets enabled on top of the chosen ones, as plugin toolsets are: an MCP server's tools
   * (`mcp-<server>`, see `mcpAgentTools`) come on with the server. Each must name a toolset
   * that `tools` (or the shared registry) provides.
   */
  readonly extraToolsets?: readonly string[];
  /** Session store, registry, skills and approval settings shared with other agents. */
  readonly shared?: SharedAgentComponents;
  /**
   * The session store when there is no `shared` (which carries its own): the host opened it
   * (`openSessionStoreFor`, PostgreSQL under `storage:`) and closes it. Default: SQLite in
   * `HERMES_HOME/state.db`, opened and closed with the agent.
   */
  readonly store?: SessionStore;
  /**
   * What the loaded plugins give the agent ({@link agentPluginParts}): tools, toolsets, hooks,
   * the selected memory provider and context engine. With `shared`, the plugin tools must
   * already be in the shared registry (the agent factory puts them there).
   */
  readonly plugins?: AgentPluginParts;
  /**
   * The chat the agent's session talks to (a gateway chat): its tools see it as
   * `ToolContext.origin`, and a job `cronjob` creates here delivers back to it.
   */
  readonly origin?: ToolOrigin;
  /**
   * The `cronjob` tool's store and run-now (the gateway's cron service), or `false` for none.
   * Default: a store over `HERMES_HOME/state.db`, opened at the tool's first call and closed
   * with the agent; `run` then leaves the job to the next tick. Never offered on platform
   * `cron`. Ignored with `shared` (the shared components carry the tool).
   */
  readonly cronjob?: CronjobSetup | false;
  /**
   * Learning settings that replace the configured ones for this agent. One-shot runs (`chat -q`,
   * a cron job) turn `titles` (and cron the review) off: the agent closes as soon as its one
   * turn ends, which would cut the side request off after it was paid for.
   */
  readonly learning?: Partial<LearningConfig>;
  /** Extra Agent options, applied last. */
  readonly overrides?: Partial<AgentOptions>;
}

/**
 * Builds an agent from `config`: its provider (with `options.model` in place of the configured
 * model), turn budgets, toolsets, terminal, skills (with the bundled ones) and yolo setting.
 *
 * @throws HermesError `config.no_provider` with `config.providerProblem` when no provider is
 * usable; `createAgent`'s errors for a bad entry.
 */
export function buildAgent(config: HermesConfig, options: BuildAgentOptions): CreatedAgent {
  if (!config.provider) {
    throw new HermesError(NO_PROVIDER_CODE, config.providerProblem ?? 'no provider is configured');
  }
  if (!options.shared) {
    const cronjob = agentCronjob(config, options.cronjob, options.platform);
    if (cronjob) return buildWithCronjob(config, options, cronjob);
  }
  return buildOn(config, options);
}

/**
 * The agent on shared components of its own, so the loop serves `cronjob` beside
 * `session_search` and the skill tools (the registry refuses the name in generic dispatch).
 */
function buildWithCronjob(
  config: HermesConfig,
  options: BuildAgentOptions,
  cronjob: AgentCronjob,
): CreatedAgent {
  const plugins = options.plugins ?? NO_PLUGIN_PARTS;
  const bundledDir = findBundledSkillsDir();
  const tools = [...(options.tools ?? []), ...plugins.tools];
  // vision_analyze and web_extract run on the agent's slots, which exist once it is built.
  let slots: AuxiliaryModels | undefined;
  const own = createSharedComponents({
    hermesHome: config.hermesHome,
    skills: { dirs: [...config.skillDirs], ...(bundledDir ? { bundledDir } : {}) },
    ...(tools.length ? { tools } : {}),
    ...(options.store ? { store: options.store } : {}),
    ...webSearchOption(config),
    ...sideTaskToolOptions(() => agentSlots(slots), options.cwd),
  });
  let created: CreatedAgent;
  try {
    for (const spec of plugins.replacing) own.registry.register(spec, { replace: true });
    const { tools: _ownTools, ...rest } = options;
    created = buildOn(config, {
      ...rest,
      shared: { ...own, loopTools: [...own.loopTools, cronjob.tool] },
    });
    slots = created.auxiliary;
  } catch (error) {
    void own.close();
    void cronjob.close();
    throw error;
  }
  return {
    agent: created.agent,
    registry: created.registry,
    skills: created.skills,
    auxiliary: created.auxiliary,
    learning: created.learning,
    checkpoints: created.checkpoints,
    async close() {
      try {
        await created.close();
      } finally {
        await own.close();
        await cronjob.close();
      }
    },
  };
}

/** The agent's slots; the tools that need them are only called once it exists. */
function agentSlots(slots: AuxiliaryModels | undefined): AuxiliaryModels {
  if (!slots) throw new HermesError('runtime.agent_not_built', 'The agent is not built yet.');
  return slots;
}

/** `createAgent` for `options`, on `options.shared` when given. */
function buildOn(config: HermesConfig, options: BuildAgentOptions): CreatedAgent {
  const plugins = options.plugins ?? NO_PLUGIN_PARTS;
  const bundledDir = options.shared ? undefined : findBundledSkillsDir();
  const toolsets = withPluginToolsets(options.toolsets ?? config.toolsets, [
    ...plugins.toolsets,
    ...(options.extraToolsets ?? []),
  ]);
  const compression = compressionSettings(config);
  const limits = memoryLimits(config);
  const tools = options.shared ? [] : [...(options.tools ?? []), ...plugins.tools];
  const created = createAgent(
    {
      provider: {
        ...(config.provider as Record<string, unknown>),
        ...(options.model ? { model: options.model } : {}),
      },
      hermesHome: config.hermesHome,
      platform: options.platform,
      cwd: options.cwd,
      maxIterations: config.maxTurns,
      yolo: config.yolo,
      approvalSurface: options.surface,
      skills: { dirs: [...config.skillDirs], ...(bundledDir ? { bundledDir } : {}) },
      ...(config.runBudgetSeconds ? { runBudgetSeconds: config.runBudgetSeconds } : {}),
      ...(toolsets ? { toolsets: [...toolsets] } : {}),
      ...(config.disabledToolsets ? { disabledToolsets: [...config.disabledToolsets] } : {}),
      ...(config.terminal ? { terminal: { ...config.terminal } } : {}),
      ...(options.sessionId ? { sessionId: options.sessionId } : {}),
      ...(compression.contextLength ? { contextLength: compression.contextLength } : {}),
      ...(compression.settings ? { compression: compression.settings } : {}),
      ...(limits ? { memoryLimits: limits } : {}),
      ...(config.auxiliary ? { auxiliary: config.auxiliary } : {}),
      ...(config.learning || options.learning
        ? { learning: { ...config.learning, ...options.learning } }
        : {}),
      ...(config.checkpoints ? { checkpoints: config.checkpoints } : {}),
    },
    {
      ...(options.approvalHandler ? { approvalHandler: options.approvalHandler } : {}),
      ...(options.clarify ? { clarify: options.clarify } : {}),
      ...(tools.length ? { tools } : {}),
      ...(options.shared
        ? { shared: options.shared }
        : { ...(options.store ? { store: options.store } : {}) }),
      ...(plugins.hooks ? { hooks: plugins.hooks } : {}),
      ...(plugins.memoryProvider ? { memoryProvider: plugins.memoryProvider() } : {}),
      ...(plugins.contextEngine ? { contextEngine: plugins.contextEngine } : {}),
      ...(options.origin || options.overrides
        ? {
            overrides: {
              ...(options.origin ? { origin: options.origin } : {}),
              ...options.overrides,
            },
          }
        : {}),
    },
  );
  // Allowed overrides replace the built-in of the same name in the agent's own registry.
  if (!options.shared) {
    // `web.search_backend`: the agent's own registry gets the configured backend.
    const webSearch = webSearchBackendFor(config);
    if (webSearch) created.registry.register(createWebSearchTool(webSearch), { replace: true });
    for (const spec of plugins.replacing) created.registry.register(spec, { replace: true });
  }
  return created;
}

/**
 * The toolsets to enable, plus every plugin and MCP toolset (their tools come on with the plugin
 * or server).
 */
function withPluginToolsets(
  toolsets: readonly string[] | undefined,
  extra: readonly string[],
): readonly string[] | undefined {
  if (extra.length === 0) return toolsets;
  return [...new Set([...(toolsets ?? DEFAULT_ENABLED_TOOLSETS), ...extra])];
}
