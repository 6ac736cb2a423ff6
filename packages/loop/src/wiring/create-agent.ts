/**
 * `createAgent(config)`: the default wiring for the apps and for library users — provider chain
 * with retries and fallback, SQLite session store, ContextCompressor summarizing with the
 * `compression` auxiliary slot (the main model unless configured), auxiliary models, the tool
 * registry with the core tools, the command approver, and the configured
 * execution environment. Everything can be replaced by building an {@link Agent} directly.
 * Hosts that run many agents share the heavy parts through `deps.shared`
 * ({@link createSharedComponents}).
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { type ApprovalHandler, CommandApprover } from '@hermes/approval';
import { ContextCompressor, type ContextEngine } from '@hermes/context-engine';
import {
  createEnvironment,
  EnvironmentConfigSchema,
  type ExecutionEnvironment,
} from '@hermes/environments';
import { MemoryManager, type MemoryProvider } from '@hermes/memory';
import { HermesError, parseOrThrow } from '@hermes/protocol';
import { createProvider, resolveModelLimits } from '@hermes/providers';
import type { SkillsLibrary } from '@hermes/skills';
import type { SessionStore } from '@hermes/state';
import {
  type ClarifyCallback,
  DEFAULT_ENABLED_TOOLSETS,
  type ToolRegistry,
  type ToolSpec,
} from '@hermes/tools';
import { Agent } from '../agent.js';
import type { AgentOptions } from '../agent-options.js';
import { AuxiliaryModels } from '../auxiliary/auxiliary-models.js';
import { sideTaskToolOptions } from '../auxiliary/side-tasks.js';
import { CheckpointConfigSchema } from '../checkpoints/checkpoint-config.js';
import { type CheckpointHandle, wireCheckpoints } from '../checkpoints/checkpoint-wiring.js';
import type { ListenerErrorReporter } from '../events/event-bus.js';
import type { AgentHooks, HookErrorReporter } from '../hooks/agent-hooks.js';
import { guardHooks } from '../hooks/guard-hooks.js';
import { type LearningHandle, wireLearning } from '../learning/learning-wiring.js';
import { RegistryToolbox } from '../tools/registry-toolbox.js';
import { approvalHookOptions } from './approval-hooks.js';
import {
  type CreateAgentConfig,
  type CreateAgentConfigInput,
  parseCreateAgentConfig,
} from './create-agent-config.js';
import { loopToolOf } from './loop-tool-of.js';
import { wireMemory } from './memory-wiring.js';
import {
  createSharedComponents,
  type OwnedSharedComponents,
  type SharedAgentComponents,
} from './shared-components.js';
import { reportSmartRulings, smartApprovalOptions } from './smart-approval-wiring.js';
import { summarizerFor } from './summarizer.js';

/** Things that are not configuration: callbacks, extra tools and shared components. */
export interface CreateAgentDeps {
  /** Extra tools (your app's own), registered beside the core tools. Not with `shared`. */
  readonly tools?: readonly ToolSpec[];
  /** Asks a person about flagged commands (interactive surfaces). */
  readonly approvalHandler?: ApprovalHandler;
  /** Answers `clarify`. */
  readonly clarify?: ClarifyCallback;
  readonly onListenerError?: ListenerErrorReporter;
  /** An external memory provider (`memory.provider`), run through a MemoryManager. */
  readonly memoryProvider?: MemoryProvider;
  /**
   * The session store, tool registry, skills library and approval settings to use instead of
   * building them ({@link createSharedComponents}, for the same `hermesHome`). They stay open
   * when this agent closes; `config.skills` is then ignored (the shared library decides).
   */
  readonly shared?: SharedAgentComponents;
  /**
   * The session store when there is no `shared`: the host opened it (a PostgreSQL one, say) and
   * closes it. Default: SQLite in `hermesHome/state.db`, closed with the agent.
   */
  readonly store?: SessionStore;
  /**
   * Hooks into the agent's life (the plugin host's runner): tool and model calls, sessions,
   * delegated children, and the approver's rulings (`preApproval` / `postApproval`).
   */
  readonly hooks?: AgentHooks;
  /** Told when a hook fails (default: console.warn). */
  readonly onHookError?: HookErrorReporter;
  /**
   * Builds the context engine instead of the default `ContextCompressor`: one for the agent and
   * a fresh one for each delegated child. `config.compression` thresholds are then the engine's
   * business; `compression.enabled: false` still turns automatic compression off.
   */
  readonly contextEngine?: (init: ContextEngineInit) => ContextEngine;
  /** Extra Agent options, applied last (tests, advanced hosts). */
  readonly overrides?: Partial<AgentOptions>;
}

/** What a context engine factory is told. */
export interface ContextEngineInit {
  /** The model's context window, in tokens. */
  readonly contextLength: number;
  readonly model: string;
  readonly hermesHome: string;
}

/** An Agent built by {@link createAgent}; `close()` releases what it owns. */
export interface CreatedAgent {
  readonly agent: Agent;
  readonly registry: ToolRegistry;
  readonly skills: SkillsLibrary;
  /** The models of the agent's side tasks, and their usage per slot (for `/usage`). */
  readonly auxiliary: AuxiliaryModels;
  /** The learning loop: the background review after turns, and `/learn`. */
  readonly learning: LearningHandle;
  /** Checkpoints of the working directory before file changes, and `/rollback [n]`. */
  readonly checkpoints: CheckpointHandle;
  /**
   * Ends the agent's session (the `sessionEnd` hook), then releases the environment and the
   * provider, and the store when it is the agent's own (not `deps.shared`).
   */
  close(): Promise<void>;
}

/** Builds an agent with the default components. Throws a `ValidationError` for bad config. */
export function createAgent(
  input: CreateAgentConfigInput,
  deps: CreateAgentDeps = {},
): CreatedAgent {
  const config = parseCreateAgentConfig(input);
  if (deps.shared && deps.tools?.length) {
    throw new HermesError(
      'loop.shared_tools',
      'Extra tools go into the shared registry (createSharedComponents({ tools })), not into one agent built on it.',
    );
  }
  const hermesHome =
    config.hermesHome ??
    deps.shared?.hermesHome ??
    process.env.HERMES_HOME ??
    join(homedir(), '.hermes');
  let agent: Agent | undefined;
  const created = createProvider(config.provider as Parameters<typeof createProvider>[0], {
    onRetry: ({ attempt, delayMs, classified }) =>
      agent?.reportModelRetry({
        attempt,
        delayMs,
        code: `provider.${classified.reason}`,
        message: classified.message,
      }),
  });
  const auxiliary = new AuxiliaryModels({
    main: created.provider,
    mainModel: created.model,
    ...(config.auxiliary ? { config: config.auxiliary } : {}),
    build: (entry) => createProvider(entry as Parameters<typeof createProvider>[0]),
  });
  const owned: OwnedSharedComponents | undefined = deps.shared
    ? undefined
    : createSharedComponents({
        hermesHome,
        ...(config.skills ? { skills: config.skills } : {}),
        ...(deps.tools ? { tools: deps.tools } : {}),
        ...(deps.store ? { store: deps.store } : {}),
        // vision_analyze and web_extract's condenser run on this agent's auxiliary slots.
        ...sideTaskToolOptions(() => auxiliary, config.cwd ?? process.cwd()),
      });
  const shared = (deps.shared ?? owned) as SharedAgentComponents;
  const environment = environmentFor(config, hermesHome, deps.shared !== undefined);
  const memory = config.memory
    ? wireMemory(
        hermesHome,
        () => agent?.sessionId,
        memoryManager(deps),
        config.platform,
        config.memoryLimits,
      )
    : undefined;
  const enabled = enabledTools(shared.registry, config.toolsets, config.disabledToolsets);
  const memoryTools = memory ? [loopToolOf(memory.tool)] : [];
  const loopTools = [...shared.loopTools, ...memoryTools].filter(
    (tool) => enabled?.has(tool.schema.function.name) ?? true,
  );
  // The selected provider's tools come and go with the memory toolset (no toolset names them).
  if (memory && (enabled?.has('memory') ?? true)) loopTools.push(...memory.providerTools);
  const hookObservers = approvalHookOptions(deps.hooks && guardHooks(deps.hooks, deps.onHookError));
  const approval = new CommandApprover(
    { ...shared.approvalSettings, ...(config.yolo ? { yolo: true } : {}) },
    {
      hermesHome,
      ...(deps.approvalHandler ? { handler: deps.approvalHandler } : {}),
      ...hookObservers,
      ...smartApprovalOptions(auxiliary, () => agent, config.cwd ?? process.cwd()),
      onEvent: reportSmartRulings(() => agent, hookObservers.onEvent),
    },
  );
  const contextLength = config.contextLength ?? resolveModelLimits(created.model).contextWindow;
  const newEngine = engineFactory(
    config,
    created.model,
    auxiliary,
    { contextLength, hermesHome },
    deps,
  );
  const checkpoints = wireCheckpoints(
    {
      hermesHome,
      cwd: config.cwd ?? process.cwd(),
      settings: CheckpointConfigSchema.parse(config.checkpoints ?? {}),
    },
    deps.hooks,
  );
  const toolbox = new RegistryToolbox(shared.registry, {
    definitions: shared.definitions,
    request: {
      ...(config.toolsets ? { enabledToolsets: config.toolsets } : {}),
      ...(config.disabledToolsets ? { disabledToolsets: config.disabledToolsets } : {}),
      contextLength,
    },
  });
  agent = new Agent({
    provider: created.provider,
    model: created.model,
    providerName: String(config.provider.provider),
    tools: toolbox,
    loopTools,
    sessionStore: shared.store,
    contextEngine: newEngine(),
    environment: deps.shared ? environment.get : environment.get(),
    approval,
    platform: config.platform,
    hermesHome,
    maxIterations: config.maxIterations,
    retryTransient: false, // the provider chain retries inside itself
    onTurnStart: () => created.beginTurn(),
    skillsIndex: () => shared.skills.buildIndex({ platform: config.platform }),
    ...(memory ? { memory: memory.turnMemory } : {}),
    ...(config.approvalSurface ? { approvalSurface: config.approvalSurface } : {}),
    ...(config.sessionId ? { sessionId: config.sessionId } : {}),
    ...(config.cwd ? { cwd: config.cwd } : {}),
    ...(config.runBudgetSeconds ? { runBudgetSeconds: config.runBudgetSeconds } : {}),
    ...(config.delegation && (enabled?.has('delegate_task') ?? true)
      ? { delegation: { createContextEngine: newEngine } }
      : {}),
    ...(deps.clarify ? { clarify: deps.clarify } : {}),
    ...(deps.onListenerError ? { onListenerError: deps.onListenerError } : {}),
    ...(checkpoints.hooks ? { hooks: checkpoints.hooks } : {}),
    ...(deps.onHookError ? { onHookError: deps.onHookError } : {}),
    ...(config.compression?.enabled === false ? { autoCompression: false } : {}),
    ...deps.overrides,
  });
  checkpoints.attach(agent);
  const learning = wireLearning({
    agent: () => agent,
    auxiliary,
    hermesHome,
    platform: config.platform,
    sessionStore: shared.store,
    // The review's `memory` and `skill_manage` are the agent's own (same guards, same toolsets).
    tools: loopTools,
    environment: environment.get,
    ...(config.learning ? { settings: config.learning } : {}),
  });
  return {
    agent,
    registry: shared.registry,
    skills: shared.skills,
    auxiliary,
    learning,
    checkpoints: checkpoints.handle,
    async close() {
      await learning.close();
      await agent?.endSession();
      await memory?.shutdown();
      await environment.built()?.cleanup();
      await owned?.close();
      await auxiliary.close();
      await created.provider.close();
    },
  };
}

/**
 * Builds the agent's context engines (one now, one per delegated child): the host's factory, or
 * a `ContextCompressor` with the `compression` settings, summarizing with the `compression`
 * auxiliary slot (the main model unless configured).
 */
function engineFactory(
  config: CreateAgentConfig,
  model: string,
  auxiliary: AuxiliaryModels,
  base: { readonly contextLength: number; readonly hermesHome: string },
  deps: CreateAgentDeps,
): () => ContextEngine {
  const init: ContextEngineInit = { ...base, model };
  const custom = deps.contextEngine;
  if (custom) return () => custom(init);
  const settings = config.compression;
  return () =>
    new ContextCompressor({
      contextLength: init.contextLength,
      model: init.model,
      summarizer: summarizerFor(auxiliary.for('compression'), auxiliary.for('compression').model),
      ...(settings?.threshold === undefined ? {} : { thresholdPercent: settings.threshold }),
      ...(settings?.protectFirstN === undefined ? {} : { protectFirstN: settings.protectFirstN }),
      ...(settings?.tailMinMessages === undefined
        ? {}
        : { tailMinMessages: settings.tailMinMessages }),
    });
}

/**
 * The agent's execution environment: built now, or — for agents on shared components, which a
 * host may keep idle by the hundred — at the first tool call (the configuration is still checked
 * now, so a bad `terminal` section fails the build, not a turn).
 */
function environmentFor(
  config: ReturnType<typeof parseCreateAgentConfig>,
  hermesHome: string,
  lazy: boolean,
): { get: () => ExecutionEnvironment; built: () => ExecutionEnvironment | undefined } {
  const settings = { terminal: { ...(config.cwd ? { cwd: config.cwd } : {}), ...config.terminal } };
  let environment: ExecutionEnvironment | undefined;
  const get = () => {
    environment ??= createEnvironment(settings, { hermesHome });
    return environment;
  };
  if (lazy) {
    parseOrThrow(
      EnvironmentConfigSchema,
      settings,
      'terminal configuration',
      'fix the terminal section of config.yaml',
    );
  } else get();
  return { get, built: () => environment };
}

/**
 * The tool names the toolsets enable (`registry.toolsets.select`), so the tools the loop serves
 * itself (memory, session_search, the skill tools, delegate_task) follow the toolsets like the
 * registry's: `toolsets: [safe]` really is read-only. Undefined when the toolsets cannot be
 * resolved (an unknown name): the first model request reports that, as before.
 */
function enabledTools(
  registry: ToolRegistry,
  toolsets: readonly string[] | undefined,
  disabled: readonly string[] | undefined,
): ReadonlySet<string> | undefined {
  try {
    return new Set(registry.toolsets.select(toolsets ?? DEFAULT_ENABLED_TOOLSETS, disabled ?? []));
  } catch {
    return undefined;
  }
}

function memoryManager(deps: CreateAgentDeps): MemoryManager | undefined {
  if (!deps.memoryProvider) return undefined;
  const manager = new MemoryManager({ provider: deps.memoryProvider });
  return manager;
}
