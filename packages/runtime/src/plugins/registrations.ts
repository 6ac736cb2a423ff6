/**
 * What plugins registered: one plugin's registrations are staged while its `register` runs and
 * committed only when it succeeds, so a plugin that fails leaves nothing behind.
 */
import type {
  ContextEngine,
  ContextEngineInit,
  CreatePlatformAdapter,
  MemoryProvider,
  PluginCommand,
  PluginHookHandler,
  PluginHookName,
  PluginTool,
} from '@hermes/plugin-sdk';

/** A tool a plugin registered, with the toolset it joins. */
export interface RegisteredPluginTool {
  /** The plugin's package name. */
  readonly plugin: string;
  readonly tool: PluginTool;
  /** `tool.toolset`, or the plugin's short name. */
  readonly toolset: string;
  /** True when it replaces a built-in tool of the same name (allowed by `allow_override`). */
  readonly replacesBuiltin: boolean;
}

/** A hook a plugin registered. */
export interface RegisteredHook {
  readonly plugin: string;
  readonly name: PluginHookName;
  readonly handler: PluginHookHandler;
  /** Its own timeout; the host's `hook_timeout_ms` when absent. */
  readonly timeoutMs?: number;
}

/** Makes a memory provider for one agent (a shared instance returns itself). */
export type MemoryProviderMaker = () => MemoryProvider;
/** Makes a context engine for one agent (a shared instance returns itself). */
export type ContextEngineMaker = (init: ContextEngineInit) => ContextEngine;

/** One plugin's registrations while its `register` runs. */
export class StagedRegistrations {
  readonly tools: RegisteredPluginTool[] = [];
  readonly hooks: RegisteredHook[] = [];
  readonly commands = new Map<string, PluginCommand>();
  readonly platforms = new Map<string, CreatePlatformAdapter>();
  readonly memoryProviders = new Map<string, MemoryProviderMaker>();
  readonly contextEngines = new Map<string, ContextEngineMaker>();

  /** The names of what it holds, for `hermes plugins list`. */
  summary(): {
    tools: string[];
    hooks: string[];
    commands: string[];
    platforms: string[];
    memoryProviders: string[];
    contextEngines: string[];
  } {
    return {
      tools: this.tools.map((t) => t.tool.schema.function.name),
      hooks: [...new Set(this.hooks.map((h) => h.name))],
      commands: [...this.commands.keys()],
      platforms: [...this.platforms.keys()],
      memoryProviders: [...this.memoryProviders.keys()],
      contextEngines: [...this.contextEngines.keys()],
    };
  }
}

/** Everything committed so far, by every plugin loaded. */
export class PluginRegistry {
  readonly tools = new Map<string, RegisteredPluginTool>();
  readonly hooks: RegisteredHook[] = [];
  readonly commands = new Map<string, { plugin: string; command: PluginCommand }>();
  readonly platforms = new Map<string, { plugin: string; create: CreatePlatformAdapter }>();
  readonly memoryProviders = new Map<string, { plugin: string; create: MemoryProviderMaker }>();
  readonly contextEngines = new Map<string, { plugin: string; create: ContextEngineMaker }>();

  /**
   * Adds a plugin's staged registrations. Clashes were settled while staging (a tool allowed to
   * override replaces the earlier plugin's tool here).
   */
  commit(plugin: string, staged: StagedRegistrations): void {
    for (const tool of staged.tools) {
      const name = tool.tool.schema.function.name;
      this.tools.delete(name); // an allowed override takes the later place
      this.tools.set(name, tool);
    }
    this.hooks.push(...staged.hooks);
    for (const [name, command] of staged.commands) this.commands.set(name, { plugin, command });
    for (const [name, create] of staged.platforms) this.platforms.set(name, { plugin, create });
    for (const [name, create] of staged.memoryProviders) {
      this.memoryProviders.set(name, { plugin, create });
    }
    for (const [name, create] of staged.contextEngines) {
      this.contextEngines.set(name, { plugin, create });
    }
  }
}
