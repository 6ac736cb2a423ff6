/**
 * What the loaded plugins give every agent built from config: their tools (as registry specs, in
 * toolsets enabled with the plugin), their hooks, and the memory provider and context engine
 * that `memory.provider` and `context.engine` select. A selection nothing provides is an error
 * naming what is available — never a silent fallback to the built-in strategy.
 */

import type { ContextEngine } from '@hermes/context-engine';
import type { ContextEngineInit } from '@hermes/loop';
import type { MemoryProvider } from '@hermes/memory';
import { HermesError } from '@hermes/protocol';
import { coreTools, LOOP_OWNED_TOOL_NAMES, type ToolSpec } from '@hermes/tools';
import type { HermesConfig } from '../config/hermes-config.js';
import type { HookRunner } from '../plugins/hook-runner.js';
import type { LoadedPlugins } from '../plugins/load-plugins.js';
import type { RegisteredPluginTool } from '../plugins/registrations.js';

/** The code of the error for a `memory.provider` nothing provides. */
export const UNKNOWN_MEMORY_PROVIDER_CODE = 'config.unknown_memory_provider';
/** The code of the error for a `context.engine` nothing provides. */
export const UNKNOWN_CONTEXT_ENGINE_CODE = 'config.unknown_context_engine';

/** The built-in memory store's name in `memory.provider`. */
export const BUILTIN_MEMORY_PROVIDER = 'builtin';
/** The built-in context engine's name in `context.engine`. */
export const BUILTIN_CONTEXT_ENGINE = 'compressor';

/** Every built-in tool name, which a plugin tool may take only with an allowed override. */
export function builtinToolNames(): ReadonlySet<string> {
  return new Set([...coreTools().map((tool) => tool.name), ...LOOP_OWNED_TOOL_NAMES]);
}

/** The plugin parts of one agent. */
export interface AgentPluginParts {
  /** Plugin tools that take no built-in's name. */
  readonly tools: readonly ToolSpec[];
  /** Plugin tools allowed to replace a built-in of the same name (`plugins.allow_override`). */
  readonly replacing: readonly ToolSpec[];
  /** The plugins' toolsets, enabled with them. */
  readonly toolsets: readonly string[];
  /** The plugins' hooks; absent when none was registered. */
  readonly hooks?: HookRunner;
  /** Makes the selected external memory provider, one per agent. */
  readonly memoryProvider?: () => MemoryProvider;
  /** Makes the selected context engine, one per agent (and per delegated child). */
  readonly contextEngine?: (init: ContextEngineInit) => ContextEngine;
}

/** No plugin parts. */
export const NO_PLUGIN_PARTS: AgentPluginParts = Object.freeze({
  tools: [],
  replacing: [],
  toolsets: [],
});

/**
 * The parts `plugins` give agents built from `config`.
 *
 * @throws HermesError {@link UNKNOWN_MEMORY_PROVIDER_CODE} / {@link UNKNOWN_CONTEXT_ENGINE_CODE}
 *   when the selected strategy is not provided by a loaded plugin.
 */
export function agentPluginParts(config: HermesConfig, plugins: LoadedPlugins): AgentPluginParts {
  const specs = plugins.tools.map(toolSpecOf);
  const memoryProvider = selectedMemoryProvider(config, plugins);
  const contextEngine = selectedContextEngine(config, plugins);
  return {
    tools: specs.filter((_, i) => !plugins.tools[i]?.replacesBuiltin),
    replacing: specs.filter((_, i) => plugins.tools[i]?.replacesBuiltin),
    toolsets: [...new Set(plugins.tools.map((t) => t.toolset))],
    ...(plugins.hooks.isEmpty ? {} : { hooks: plugins.hooks }),
    ...(memoryProvider ? { memoryProvider } : {}),
    ...(contextEngine ? { contextEngine } : {}),
  };
}

/** A plugin tool as a registry spec: JSON-Schema parameters, coerced and passed through. */
function toolSpecOf(registered: RegisteredPluginTool): ToolSpec {
  const { function: fn } = registered.tool.schema;
  return {
    name: fn.name,
    toolset: registered.toolset,
    description: fn.description ?? '',
    parameters: fn.parameters ?? { type: 'object', properties: {} },
    handler: (args, ctx) =>
      registered.tool.handler(args, { sessionId: ctx.sessionId, signal: ctx.signal }),
  };
}

function selectedMemoryProvider(
  config: HermesConfig,
  plugins: LoadedPlugins,
): (() => MemoryProvider) | undefined {
  const name = config.memory?.provider ?? BUILTIN_MEMORY_PROVIDER;
  if (name === BUILTIN_MEMORY_PROVIDER) return undefined;
  const found = plugins.memoryProviders.get(name);
  if (found) return () => found.create();
  const available = [
    BUILTIN_MEMORY_PROVIDER,
    ...plugins.memoryProviders.keys(),
    ...plugins.availableStrategies.memoryProviders,
  ];
  throw new HermesError(
    UNKNOWN_MEMORY_PROVIDER_CODE,
    `memory.provider "${name}" is not available${brokenPlugins(plugins)}. ` +
      `Available: ${[...new Set(available)].join(', ')}. Fix memory.provider in config.yaml ` +
      '(`hermes plugins list` shows every plugin and its state).',
  );
}

function selectedContextEngine(
  config: HermesConfig,
  plugins: LoadedPlugins,
): ((init: ContextEngineInit) => ContextEngine) | undefined {
  const name = config.contextEngine ?? BUILTIN_CONTEXT_ENGINE;
  if (name === BUILTIN_CONTEXT_ENGINE) return undefined;
  const found = plugins.contextEngines.get(name);
  if (found) return (init) => found.create(init);
  const available = [
    BUILTIN_CONTEXT_ENGINE,
    ...plugins.contextEngines.keys(),
    ...plugins.availableStrategies.contextEngines,
  ];
  throw new HermesError(
    UNKNOWN_CONTEXT_ENGINE_CODE,
    `context.engine "${name}" is not available${brokenPlugins(plugins)}. ` +
      `Available: ${[...new Set(available)].join(', ')}. Fix context.engine in config.yaml ` +
      '(`hermes plugins list` shows every plugin and its state).',
  );
}

/** "; plugin X did not load (failed: why)" for each enabled plugin that did not load. */
function brokenPlugins(plugins: LoadedPlugins): string {
  const broken = plugins.statuses.filter((s) => s.enabled && s.state !== 'loaded');
  return broken
    .map(
      (s) =>
        `; plugin ${s.name} did not load (${s.state.replace('_', ' ')}${s.message ? `: ${s.message}` : ''})`,
    )
    .join('');
}
