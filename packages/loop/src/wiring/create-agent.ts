/**
 * `createAgent(config)`: the default wiring for the apps and for library users — provider chain
 * with retries and fallback, SQLite session store, ContextCompressor summarizing with the main
 * model, the tool registry with the core tools, the command approver, and the configured
 * execution environment. Everything can be replaced by building an {@link Agent} directly.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { type ApprovalHandler, CommandApprover, loadApprovalSettings } from '@hermes/approval';
import { ContextCompressor } from '@hermes/context-engine';
import { createEnvironment } from '@hermes/environments';
import { MemoryManager, type MemoryProvider } from '@hermes/memory';
import { createProvider, resolveModelLimits } from '@hermes/providers';
import { createSkillTools, SkillsLibrary } from '@hermes/skills';
import { openSessionStore } from '@hermes/state';
import { type ClarifyCallback, coreTools, ToolRegistry, type ToolSpec } from '@hermes/tools';
import { Agent } from '../agent.js';
import type { AgentOptions } from '../agent-options.js';
import type { ListenerErrorReporter } from '../events/event-bus.js';
import { RegistryToolbox } from '../tools/registry-toolbox.js';
import { type CreateAgentConfigInput, parseCreateAgentConfig } from './create-agent-config.js';
import { loopToolOf } from './loop-tool-of.js';
import { wireMemory } from './memory-wiring.js';
import { createSessionSearchTool } from './session-search-tool.js';
import { summarizerFor } from './summarizer.js';

/** Things that are not configuration: callbacks and extra tools. */
export interface CreateAgentDeps {
  /** Extra tools (your app's own), registered beside the core tools. */
  readonly tools?: readonly ToolSpec[];
  /** Asks a person about flagged commands (interactive surfaces). */
  readonly approvalHandler?: ApprovalHandler;
  /** Answers `clarify`. */
  readonly clarify?: ClarifyCallback;
  readonly onListenerError?: ListenerErrorReporter;
  /** An external memory provider (`memory.provider`), run through a MemoryManager. */
  readonly memoryProvider?: MemoryProvider;
  /** Extra Agent options, applied last (tests, advanced hosts). */
  readonly overrides?: Partial<AgentOptions>;
}

/** An Agent built by {@link createAgent}; `close()` releases the store and the environment. */
export interface CreatedAgent {
  readonly agent: Agent;
  readonly registry: ToolRegistry;
  readonly skills: SkillsLibrary;
  close(): Promise<void>;
}

/** Builds an agent with the default components. Throws a `ValidationError` for bad config. */
export function createAgent(
  input: CreateAgentConfigInput,
  deps: CreateAgentDeps = {},
): CreatedAgent {
  const config = parseCreateAgentConfig(input);
  const hermesHome = config.hermesHome ?? process.env.HERMES_HOME ?? join(homedir(), '.hermes');
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
  const store = openSessionStore({ hermesHome });
  const environment = createEnvironment(
    { terminal: { ...(config.cwd ? { cwd: config.cwd } : {}), ...config.terminal } },
    { hermesHome },
  );
  const memory = config.memory
    ? wireMemory(hermesHome, () => agent?.sessionId, memoryManager(deps), config.platform)
    : undefined;
  const skills = new SkillsLibrary({
    hermesHome,
    ...(config.skills?.bundledDir ? { bundledDir: config.skills.bundledDir } : {}),
    externalDirs: config.skills?.dirs ?? [],
  });
  const registry = new ToolRegistry();
  for (const spec of [...coreTools(), ...(deps.tools ?? [])]) registry.register(spec);
  // Loop-owned tools: the registry refuses them in generic dispatch, so the loop serves them.
  const loopTools = [
    createSessionSearchTool(store) as unknown as ToolSpec,
    ...skillToolSpecs(skills),
    ...(memory ? [memory.tool] : []),
  ].map(loopToolOf);
  const approval = new CommandApprover(
    { ...loadApprovalSettings(hermesHome), ...(config.yolo ? { yolo: true } : {}) },
    { hermesHome, ...(deps.approvalHandler ? { handler: deps.approvalHandler } : {}) },
  );
  const contextLength = config.contextLength ?? resolveModelLimits(created.model).contextWindow;
  const newEngine = () =>
    new ContextCompressor({
      contextLength,
      model: created.model,
      summarizer: summarizerFor(created.provider, created.model),
    });
  const toolbox = new RegistryToolbox(registry, {
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
    sessionStore: store,
    contextEngine: newEngine(),
    environment,
    approval,
    platform: config.platform,
    hermesHome,
    maxIterations: config.maxIterations,
    retryTransient: false, // the provider chain retries inside itself
    onTurnStart: () => created.beginTurn(),
    skillsIndex: () => skills.buildIndex({ platform: config.platform }),
    ...(memory ? { memory: memory.turnMemory } : {}),
    ...(config.approvalSurface ? { approvalSurface: config.approvalSurface } : {}),
    ...(config.sessionId ? { sessionId: config.sessionId } : {}),
    ...(config.cwd ? { cwd: config.cwd } : {}),
    ...(config.runBudgetSeconds ? { runBudgetSeconds: config.runBudgetSeconds } : {}),
    ...(config.delegation ? { delegation: { createContextEngine: newEngine } } : {}),
    ...(deps.clarify ? { clarify: deps.clarify } : {}),
    ...(deps.onListenerError ? { onListenerError: deps.onListenerError } : {}),
    ...deps.overrides,
  });
  return {
    agent,
    registry,
    skills,
    async close() {
      await environment.cleanup();
      await store.close();
      await created.provider.close();
    },
  };
}

function memoryManager(deps: CreateAgentDeps): MemoryManager | undefined {
  if (!deps.memoryProvider) return undefined;
  const manager = new MemoryManager({ provider: deps.memoryProvider });
  return manager;
}

/** The skill tools as registry specs (the skills package shapes them like ToolSpec). */
function skillToolSpecs(library: SkillsLibrary): ToolSpec[] {
  return createSkillTools(library).map((tool) => ({
    name: tool.name,
    toolset: tool.toolset,
    description: tool.description,
    parameters: tool.parameters as ToolSpec['parameters'],
    parallelSafe: tool.parallelSafe,
    handler: (args: unknown) => tool.handler(args),
  }));
}
