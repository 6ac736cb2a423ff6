/**
 * The parts of {@link createAgent}'s wiring that do not belong to one conversation: the session
 * store, the tool registry and its definitions cache, the skills library, the loop-served tools
 * over them (`session_search`, the skill tools) and the approval settings. A host that runs many
 * agents in one process (the gateway) builds them once and passes them to every `createAgent`
 * call as `deps.shared`, so an idle agent holds only what is its own.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { type ApprovalSettings, loadApprovalSettings } from '@hermes/approval';
import { createSkillTools, SkillsLibrary } from '@hermes/skills';
import { openSessionStore, type SessionStore } from '@hermes/state';
import {
  coreTools,
  defaultSurface,
  type ExecuteCodeDispatch,
  type ExecuteCodeOptions,
  ToolDefinitions,
  ToolRegistry,
  type ToolSpec,
  type VisionBackend,
  type WebExtractOptions,
  type WebSearchBackend,
} from '@hermes/tools';
import type { LoopTool } from '../tools/loop-toolbox.js';
import { agentDispatchOf } from '../tools/script-dispatch.js';
import { loopToolOf } from './loop-tool-of.js';
import { createSessionSearchTool } from './session-search-tool.js';

/** What the shared parts are built from. */
export interface SharedComponentsConfig {
  /** The data home; default `HERMES_HOME` or `~/.hermes`. Every agent using them must share it. */
  readonly hermesHome?: string;
  /** Extra skill directories, and the bundled skills directory. */
  readonly skills?: {
    readonly dirs?: readonly string[];
    readonly bundledDir?: string | undefined;
  };
  /** Extra tools (the host's own), registered beside the core tools. */
  readonly tools?: readonly ToolSpec[];
  /** A session store the host already opened (it stays the host's to close). */
  readonly store?: SessionStore;
  /** The backend of `web_search` (`web.search_backend`); without it the tool is hidden. */
  readonly webSearch?: WebSearchBackend;
  /**
   * Limits of `execute_code` (timeout, tool calls, output, allowed tools). Its dispatch is always
   * the calling agent's own tool path, so it is not set here.
   */
  readonly executeCode?: Omit<ExecuteCodeOptions, 'dispatch'>;
  /** The backend of `vision_analyze` (the `vision` auxiliary slot); without it the tool is hidden. */
  readonly vision?: VisionBackend;
  /** Settings of `web_extract`, its page condenser (the `web_extract` slot) included. */
  readonly webExtract?: WebExtractOptions;
}

/**
 * Components every agent of a process can use at once. None of them holds per-conversation
 * state: the store is keyed by session, the registry dispatches with each call's context, and
 * the definitions cache is keyed by the toolset choice.
 */
export interface SharedAgentComponents {
  readonly hermesHome: string;
  readonly store: SessionStore;
  readonly registry: ToolRegistry;
  /** Resolved tool schemas, one entry per toolset choice, for every agent. */
  readonly definitions: ToolDefinitions;
  readonly skills: SkillsLibrary;
  /** `session_search` and the skill tools, served by the loop (schemas converted once). */
  readonly loopTools: readonly LoopTool[];
  /** The `approvals:` section of config.yaml, read once. */
  readonly approvalSettings: ApprovalSettings;
}

/** Shared components and how to release what they opened. */
export interface OwnedSharedComponents extends SharedAgentComponents {
  /** Closes the session store unless the host passed its own. Idempotent. */
  close(): Promise<void>;
}

/**
 * Builds the shared components. Opens the SQLite session store in `hermesHome/state.db` unless
 * `config.store` is given.
 *
 * @throws HermesError from the approval settings loader for a broken `approvals:` section.
 */
export function createSharedComponents(config: SharedComponentsConfig = {}): OwnedSharedComponents {
  const hermesHome = config.hermesHome ?? process.env.HERMES_HOME ?? join(homedir(), '.hermes');
  const approvalSettings = loadApprovalSettings(hermesHome);
  const skills = new SkillsLibrary({
    hermesHome,
    ...(config.skills?.bundledDir ? { bundledDir: config.skills.bundledDir } : {}),
    externalDirs: [...(config.skills?.dirs ?? [])],
  });
  const registry = new ToolRegistry();
  // Commands are ruled on where the agent runs (its `approvalSurface`: single_query, subagent,
  // cron, interactive), so each surface's approvals policy applies; the tools' own default
  // knows only cron and interactive.
  const tools = coreTools({
    approvalSurface: (ctx) => ctx.approvalSurface ?? defaultSurface(ctx),
    executeCode: { ...config.executeCode, dispatch: scriptDispatch(registry) },
    ...(config.webSearch ? { webSearch: config.webSearch } : {}),
    ...(config.vision ? { vision: config.vision } : {}),
    ...(config.webExtract ? { webExtract: config.webExtract } : {}),
  });
  for (const spec of [...tools, ...(config.tools ?? [])]) registry.register(spec);
  const store = config.store ?? openSessionStore({ hermesHome });
  // Loop-owned tools: the registry refuses them in generic dispatch, so the loop serves them.
  const loopTools = [
    createSessionSearchTool(store) as unknown as ToolSpec,
    ...skillToolSpecs(skills),
  ].map(loopToolOf);
  let closed = false;
  return {
    hermesHome,
    store,
    registry,
    definitions: new ToolDefinitions(registry),
    skills,
    loopTools,
    approvalSettings,
    async close() {
      if (closed || config.store) return;
      closed = true;
      await store.close();
    },
  };
}

/**
 * What an `execute_code` script's tool calls run through: the calling agent's toolbox (tool hooks,
 * the registry's dispatch limited to the session's tools, the command guard on the call's
 * context) — or, for a call made outside an agent, the registry with the same context. The
 * script reads the text the model would have read, errors and denials included.
 */
function scriptDispatch(registry: ToolRegistry): ExecuteCodeDispatch {
  return async (name, args, ctx) => {
    const viaAgent = agentDispatchOf(ctx);
    const result = viaAgent
      ? await viaAgent(name, args, ctx)
      : await registry.dispatch(name, args, ctx);
    return result.content;
  };
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
