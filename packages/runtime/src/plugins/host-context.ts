/**
 * The host's {@link PluginContext}: what a plugin's `register` registers through. Every call is
 * checked; a bad or clashing registration is reported (logged and kept for the plugin's status)
 * and skipped, never thrown, so one mistake does not lose the plugin's other registrations.
 * Registrations are staged; the loader commits them only if `register` succeeds.
 */
import { mkdir } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import {
  PLUGIN_HOOK_NAMES,
  type PluginCommand,
  type PluginContext,
  type PluginHookName,
  type PluginHookOptions,
  type PluginLogger,
  type PluginStorage,
  type PluginTool,
} from '@hermes/plugin-sdk';
import { TOOL_NAME_PATTERN } from '@hermes/protocol';
import type { PluginHostLogger } from './host-logger.js';
import { isNamedIn, shortNameOf, storageFolderName } from './plugin-names.js';
import type { PluginsSection } from './plugins-section.js';
import { type PluginRegistry, StagedRegistrations } from './registrations.js';
import { contextEngineShape, memoryProviderShape } from './strategies.js';

const COMMAND_NAME = /^[a-z][a-z0-9-]*$/;
const PLATFORM_NAME = /^[a-z][a-z0-9_-]*$/;
const HOOK_NAMES: ReadonlySet<string> = new Set(PLUGIN_HOOK_NAMES);

/** What the context needs to know about its plugin and the host. */
export interface HostContextOptions {
  readonly plugin: { readonly name: string; readonly aliases: readonly string[] };
  readonly hermesHome: string;
  readonly section: PluginsSection;
  /** Built-in tool names a plugin tool may not take without an allowed override. */
  readonly builtinToolNames: ReadonlySet<string>;
  /** What earlier plugins committed, for clashes. */
  readonly registry: PluginRegistry;
  readonly logger: PluginHostLogger;
}

/** A plugin's context with the host's handles on it. */
export interface HostContext {
  readonly context: PluginContext;
  readonly staged: StagedRegistrations;
  /** What was reported (skipped registrations, late calls), for the plugin's status. */
  readonly notes: readonly string[];
  /** Ends registration: later calls are reported and ignored. */
  seal(): void;
}

function pluginLogger(name: string, host: PluginHostLogger): PluginLogger {
  const line = (message: string, details?: Readonly<Record<string, unknown>>): string =>
    `[plugin ${name}] ${message}${details ? ` ${JSON.stringify(details)}` : ''}`;
  return Object.freeze({
    debug: (m: string, d?: Readonly<Record<string, unknown>>) => host.debug?.(line(m, d)),
    info: (m: string, d?: Readonly<Record<string, unknown>>) => host.info(line(m, d)),
    warn: (m: string, d?: Readonly<Record<string, unknown>>) => host.warn(line(m, d)),
    error: (m: string, d?: Readonly<Record<string, unknown>>) => host.error(line(m, d)),
  });
}

function storageAt(dir: string): PluginStorage {
  return Object.freeze({
    dir,
    path(rel: string): string {
      const target = resolve(dir, rel);
      const inside = relative(dir, target);
      if (isAbsolute(rel) || inside.startsWith('..') || isAbsolute(inside)) {
        throw new Error(`storage path "${rel}" leaves the plugin's folder ${dir}`);
      }
      return target;
    },
  });
}

function configOf(o: HostContextOptions): Readonly<Record<string, unknown>> {
  const sections = o.section.config;
  const key = [o.plugin.name, ...o.plugin.aliases].find((k) => sections[k] !== undefined);
  return Object.freeze({ ...(key === undefined ? {} : sections[key]) });
}

/** Stages a tool, or returns why it is skipped. */
function acceptTool(
  o: HostContextOptions,
  staged: StagedRegistrations,
  tool: PluginTool,
): string | undefined {
  const name = (tool as Partial<PluginTool> | undefined)?.schema?.function?.name;
  if (typeof name !== 'string' || !TOOL_NAME_PATTERN.test(name)) {
    return `tool "${String(name)}" skipped: use 1-64 letters, digits, "_" or "-"`;
  }
  if (typeof tool.handler !== 'function') return `tool "${name}" skipped: no handler`;
  if (staged.tools.some((t) => t.tool.schema.function.name === name)) {
    return `tool "${name}" skipped: registered twice`;
  }
  const builtin = o.builtinToolNames.has(name);
  const other = o.registry.tools.get(name)?.plugin;
  if (builtin || other !== undefined) {
    const owner = builtin ? 'a built-in tool' : `plugin ${other}'s tool`;
    if (tool.override !== true) {
      return `tool "${name}" skipped: clashes with ${owner} (set override: true to replace it)`;
    }
    if (!isNamedIn(o.section.allow_override, o.plugin)) {
      return `tool "${name}" skipped: replacing ${owner} needs "${o.plugin.name}" in plugins.allow_override`;
    }
  }
  const toolset =
    typeof tool.toolset === 'string' && tool.toolset.trim() !== ''
      ? tool.toolset
      : shortNameOf(o.plugin.name);
  staged.tools.push({ plugin: o.plugin.name, tool, toolset, replacesBuiltin: builtin });
  return undefined;
}

/** Stages a command, or returns why it is skipped. */
function acceptCommand(
  o: HostContextOptions,
  staged: StagedRegistrations,
  command: PluginCommand,
): string | undefined {
  const name = (command as Partial<PluginCommand> | undefined)?.name;
  if (typeof name !== 'string' || !COMMAND_NAME.test(name)) {
    return `command "${String(name)}" skipped: use one lower-case word`;
  }
  if (typeof command.run !== 'function') return `command "${name}" skipped: no run`;
  const other = o.registry.commands.get(name)?.plugin;
  if (other !== undefined || staged.commands.has(name)) {
    return `command "${name}" skipped: already registered by ${other ?? 'this plugin'}`;
  }
  staged.commands.set(name, command);
  return undefined;
}

/** Registers what the plugin offers into `staged`, checking each call. */
function registrar(
  o: HostContextOptions,
  staged: StagedRegistrations,
  report: (m: string) => void,
  sealed: () => boolean,
): Omit<PluginContext, 'name' | 'logger' | 'storage' | 'config'> {
  const open = (what: string): boolean => {
    if (sealed()) report(`${what} called after register() finished: ignored`);
    return !sealed();
  };
  const unique = <V>(
    kind: string,
    name: string,
    mine: Map<string, V>,
    theirs: Map<string, { plugin: string }>,
  ) => {
    const other = theirs.get(name)?.plugin;
    if (other === undefined && !mine.has(name)) return true;
    report(`${kind} "${name}" skipped: already registered by ${other ?? 'this plugin'}`);
    return false;
  };
  return {
    registerTool: (tool) => {
      const problem = open('registerTool') ? acceptTool(o, staged, tool) : undefined;
      if (problem) report(problem);
    },
    registerCommand: (command) => {
      const problem = open('registerCommand') ? acceptCommand(o, staged, command) : undefined;
      if (problem) report(problem);
    },
    registerHook: (name: PluginHookName, handler, options?: PluginHookOptions) => {
      if (!open('registerHook')) return;
      if (!HOOK_NAMES.has(name)) return report(`hook "${String(name)}" skipped: no such hook`);
      if (typeof handler !== 'function') return report(`hook "${name}" skipped: not a function`);
      const timeoutMs = options?.timeoutMs;
      const valid = typeof timeoutMs === 'number' && Number.isFinite(timeoutMs) && timeoutMs > 0;
      if (timeoutMs !== undefined && !valid) report(`hook "${name}": timeoutMs ignored (not > 0)`);
      staged.hooks.push({
        plugin: o.plugin.name,
        name,
        handler: handler as never,
        ...(valid ? { timeoutMs } : {}),
      });
    },
    registerPlatform: (platform, create) => {
      if (!open('registerPlatform')) return;
      if (typeof platform !== 'string' || !PLATFORM_NAME.test(platform)) {
        return report(`platform "${String(platform)}" skipped: use a lower-case name`);
      }
      if (typeof create !== 'function') return report(`platform "${platform}" skipped: no create`);
      if (unique('platform', platform, staged.platforms, o.registry.platforms)) {
        staged.platforms.set(platform, create);
      }
    },
    registerMemoryProvider: (provider) => {
      if (!open('registerMemoryProvider')) return;
      const shape = memoryProviderShape(provider);
      if (!shape.ok) return report(`${shape.problem}: skipped`);
      if (
        unique('memory provider', shape.name, staged.memoryProviders, o.registry.memoryProviders)
      ) {
        staged.memoryProviders.set(shape.name, shape.make);
      }
    },
    registerContextEngine: (engine) => {
      if (!open('registerContextEngine')) return;
      const shape = contextEngineShape(engine);
      if (!shape.ok) return report(`${shape.problem}: skipped`);
      if (unique('context engine', shape.name, staged.contextEngines, o.registry.contextEngines)) {
        staged.contextEngines.set(shape.name, shape.make);
      }
    },
  };
}

/**
 * Makes a plugin's context. Its storage folder, `HERMES_HOME/plugin-data/<name>` (`/` → `__`),
 * exists when this resolves.
 */
export async function createHostContext(o: HostContextOptions): Promise<HostContext> {
  const name = o.plugin.name;
  const dir = join(o.hermesHome, 'plugin-data', storageFolderName(name));
  await mkdir(dir, { recursive: true });
  const staged = new StagedRegistrations();
  const notes: string[] = [];
  let isSealed = false;
  const report = (message: string): void => {
    notes.push(message);
    o.logger.warn(`[plugin ${name}] ${message}`);
  };
  const context: PluginContext = Object.freeze({
    name,
    ...registrar(o, staged, report, () => isSealed),
    logger: pluginLogger(name, o.logger),
    storage: storageAt(dir),
    config: configOf(o),
  });
  return {
    context,
    staged,
    notes,
    seal: () => {
      isSealed = true;
    },
  };
}
