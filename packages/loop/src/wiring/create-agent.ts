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
import { createProvider, resolveModelLimits } from '@hermes/providers';
import { openSessionStore } from '@hermes/state';
import { type ClarifyCallback, coreTools, type ToolSpec, ToolRegistry } from '@hermes/tools';
import { Agent } from '../agent.js';
import type { AgentOptions } from '../agent-options.js';
import type { ListenerErrorReporter } from '../events/event-bus.js';
import { RegistryToolbox } from '../tools/registry-toolbox.js';
import { type CreateAgentConfigInput, parseCreateAgentConfig } from './create-agent-config.js';
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
  /** Extra Agent options, applied last (tests, advanced hosts). */
  readonly overrides?: Partial<AgentOptions>;
}

/** An Agent built by {@link createAgent}; `close()` releases the store and the environment. */
export interface CreatedAgent {
  readonly agent: Agent;
  readonly registry: ToolRegistry;
  close(): Promise<void>;
}

/** Builds an agent with the default components. Throws a `ValidationError` for bad config. */
export function createAgent(input: CreateAgentConfigInput, deps: CreateAgentDeps = {}): CreatedAgent {
  const config = parseCreateAgentConfig(input);
  const hermesHome = config.hermesHome ?? process.env.HERMES_HOME ?? join(homedir(), '.hermes');
  const created = createProvider(config.provider as Parameters<typeof createProvider>[0], {});
  const store = openSessionStore({ hermesHome });
  const environment = createEnvironment(
    { terminal: { ...(config.cwd ? { cwd: config.cwd } : {}), ...config.terminal } },
    { hermesHome },
  );
  const registry = new ToolRegistry();
  for (const spec of [...coreTools(), ...(deps.tools ?? [])]) registry.register(spec);
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
  const agent = new Agent({
    provider: created.provider,
    model: created.model,
    providerName: String(config.provider.provider),
    tools: toolbox,
    sessionStore: store,
    contextEngine: newEngine(),
    environment,
    approval,
    platform: config.platform,
    hermesHome,
    maxIterations: config.maxIterations,
    retryTransient: false, // the provider chain retries inside itself
    onTurnStart: () => created.beginTurn(),
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
    async close() {
      await environment.cleanup();
      await store.close();
      await created.provider.close();
    },
  };
}
