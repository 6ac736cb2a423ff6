/**
 * Loading the enabled plugins: discovery, selection, the SDK provided, each plugin imported and
 * registered in a bounded time, and everything they registered collected. A plugin that cannot
 * load is reported once and skipped; the others load. When nothing is enabled, no plugin code
 * (and not the SDK's host copy) is imported.
 */
import { basename } from 'node:path';
import {
  type ContextEngine,
  type ContextEngineInit,
  type CreatePlatformAdapter,
  type MemoryProvider,
  minVersionProblem,
  type PluginCommand,
} from '@hermes/plugin-sdk';
import { bounded, messageOf } from './bounded.js';
import { type DiscoveredPlugin, type DiscoverOptions, discoverPlugins } from './discover.js';
import { HookRunner } from './hook-runner.js';
import { createHostContext } from './host-context.js';
import { type PluginHostLogger, SILENT_HOST_LOGGER } from './host-logger.js';
import { importEntry, pluginOf } from './plugin-loader.js';
import { isNamedIn } from './plugin-names.js';
import {
  noRegistrations,
  type PluginState,
  type PluginStatus,
  type RegisteredNames,
} from './plugin-status.js';
import type { PluginsSection } from './plugins-section.js';
import { PluginRegistry, type RegisteredPluginTool } from './registrations.js';
import { provideSdkTo } from './sdk-resolution.js';
import { type PluginPlan, planPlugins, type StrategySelection } from './selection.js';

/** The default bound on importing a plugin's entry and on its `register`. */
export const DEFAULT_REGISTER_TIMEOUT_MS = 10_000;

/** Options of {@link loadPlugins}. */
export interface LoadPluginsOptions extends DiscoverOptions {
  /** The parsed `plugins:` section. */
  readonly config: PluginsSection;
  /** Selecting a strategy enables the plugin providing it (unless disabled). */
  readonly select?: StrategySelection;
  /** Load only the enabled plugin whose manifest provides this command (`hermes <command>`). */
  readonly only?: { readonly command: string };
  /** Built-in tool names, which plugin tools may not take without an allowed override. */
  readonly builtinToolNames?: ReadonlySet<string>;
  /** Where problems go (each once, as a warning). Default: nowhere; statuses hold them. */
  readonly logger?: PluginHostLogger;
  /** The bound on importing an entry and on `register`, each. Default 10,000 ms. */
  readonly registerTimeoutMs?: number;
}

/** What the loaded plugins offer, and how every plugin fared. */
export interface LoadedPlugins {
  /** Every discovered plugin and broken plugin folder. */
  readonly statuses: readonly PluginStatus[];
  readonly tools: readonly RegisteredPluginTool[];
  /** The plugins' hooks; satisfies `@hermes/loop`'s `AgentHooks`. */
  readonly hooks: HookRunner;
  readonly commands: ReadonlyMap<string, { plugin: string; command: PluginCommand }>;
  readonly platforms: ReadonlyMap<string, { plugin: string; create: CreatePlatformAdapter }>;
  readonly memoryProviders: ReadonlyMap<string, { plugin: string; create(): MemoryProvider }>;
  readonly contextEngines: ReadonlyMap<
    string,
    { plugin: string; create(init: ContextEngineInit): ContextEngine }
  >;
  /** Strategies offered (per manifest) by plugins found but not enabled or disabled. */
  readonly availableStrategies: {
    memoryProviders: readonly string[];
    contextEngines: readonly string[];
  };
}

/** No plugins: what callers use when config enables none (nothing is read or imported). */
export const EMPTY_PLUGINS: LoadedPlugins = Object.freeze({
  statuses: Object.freeze([]),
  tools: Object.freeze([]),
  hooks: new HookRunner(),
  commands: new Map(),
  platforms: new Map(),
  memoryProviders: new Map(),
  contextEngines: new Map(),
  availableStrategies: Object.freeze({ memoryProviders: [], contextEngines: [] }),
});

interface Outcome {
  readonly state: PluginState;
  readonly message?: string;
  readonly registered?: RegisteredNames;
}

function statusOf(plan: PluginPlan, outcome: Outcome): PluginStatus {
  const { plugin } = plan;
  return {
    name: plugin.name,
    version: plugin.version,
    source: plugin.source,
    dir: plugin.dir,
    enabled: plan.enabled,
    state: outcome.state,
    ...(outcome.message === undefined ? {} : { message: outcome.message }),
    registered: outcome.registered ?? noRegistrations(),
  };
}

function missingEnv(plugin: DiscoveredPlugin, env: NodeJS.ProcessEnv): string[] {
  return plugin.manifest.requiresEnv.filter((name) => (env[name] ?? '') === '');
}

/** Imports one plugin and runs its `register`; commits what it registered on success. */
async function loadOne(
  plugin: DiscoveredPlugin,
  o: LoadPluginsOptions,
  registry: PluginRegistry,
  logger: PluginHostLogger,
): Promise<Outcome> {
  const timeoutMs = o.registerTimeoutMs ?? DEFAULT_REGISTER_TIMEOUT_MS;
  const imported = await bounded(() => importEntry(plugin.entry), timeoutMs);
  if (!imported.ok) {
    return imported.timedOut
      ? { state: 'timed_out', message: `importing the entry took over ${timeoutMs} ms` }
      : { state: 'failed', message: `the entry threw: ${messageOf(imported.error)}` };
  }
  const definition = pluginOf(imported.value);
  if (!definition) {
    return { state: 'invalid', message: 'the default export is not a definePlugin() plugin' };
  }
  // The manifest in code may ask for more than the package.json did. A plugin built with
  // another copy of the SDK may lack the field's default: read it defensively.
  const needs = (definition.manifest as { hermes?: { minVersion?: string } }).hermes?.minVersion;
  const tooOld = minVersionProblem(needs);
  if (tooOld) return { state: 'incompatible', message: tooOld };
  const host = await createHostContext({
    plugin,
    hermesHome: o.hermesHome,
    section: o.config,
    builtinToolNames: o.builtinToolNames ?? new Set(),
    registry,
    logger,
  });
  const registered = await bounded(() => definition.register(host.context), timeoutMs);
  host.seal();
  if (!registered.ok) {
    return registered.timedOut
      ? { state: 'timed_out', message: `register() took over ${timeoutMs} ms` }
      : { state: 'failed', message: `register() threw: ${messageOf(registered.error)}` };
  }
  registry.commit(plugin.name, host.staged);
  return {
    state: 'loaded',
    ...(host.notes.length > 0 ? { message: host.notes.join('; ') } : {}),
    registered: host.staged.summary(),
  };
}

function strategiesOffered(plans: readonly PluginPlan[]): LoadedPlugins['availableStrategies'] {
  const idle = plans.filter((p) => !p.load).map((p) => p.plugin.manifest.provides);
  return {
    memoryProviders: [...new Set(idle.flatMap((p) => p.memoryProviders ?? []))],
    contextEngines: [...new Set(idle.flatMap((p) => p.contextEngines ?? []))],
  };
}

/** Outcomes of the plugins to load, in plan order; nothing imported when there are none. */
async function loadPlanned(
  plans: readonly PluginPlan[],
  o: LoadPluginsOptions,
  registry: PluginRegistry,
  logger: PluginHostLogger,
): Promise<Map<DiscoveredPlugin, Outcome>> {
  const outcomes = new Map<DiscoveredPlugin, Outcome>();
  const env = o.env ?? process.env;
  const ready: DiscoveredPlugin[] = [];
  for (const { plugin, load } of plans) {
    if (!load) continue;
    // Before anything of the plugin runs: its package.json says what it needs.
    const tooOld = minVersionProblem(plugin.manifest.minVersion);
    const missing = missingEnv(plugin, env);
    if (tooOld) outcomes.set(plugin, { state: 'incompatible', message: tooOld });
    else if (missing.length === 0) ready.push(plugin);
    else outcomes.set(plugin, { state: 'missing_env', message: `needs ${missing.join(', ')}` });
  }
  if (ready.length > 0) await provideSdkTo(ready.map((p) => p.dir));
  for (const plugin of ready) outcomes.set(plugin, await loadOne(plugin, o, registry, logger));
  for (const [plugin, outcome] of outcomes) {
    if (outcome.state !== 'loaded') {
      logger.warn(`plugin ${plugin.name} not loaded (${outcome.state}): ${outcome.message}`);
    }
  }
  return outcomes;
}

/**
 * Discovers plugins and loads those enabled in `o.config` (or providing a selected strategy).
 * Never throws for a plugin's fault: each problem becomes the plugin's status and one warning.
 */
export async function loadPlugins(o: LoadPluginsOptions): Promise<LoadedPlugins> {
  const logger = o.logger ?? SILENT_HOST_LOGGER;
  const { plugins, problems } = await discoverPlugins(o);
  const plans = planPlugins(plugins, o.config, o.select, o.only?.command);
  const registry = new PluginRegistry();
  const outcomes = await loadPlanned(plans, o, registry, logger);
  const statuses: PluginStatus[] = plans.map((plan) => {
    const outcome = outcomes.get(plan.plugin);
    if (outcome) return statusOf(plan, outcome);
    const state = plan.disabled ? 'disabled' : 'not_enabled';
    return statusOf(
      plan,
      plan.message === undefined ? { state } : { state, message: plan.message },
    );
  });
  for (const problem of problems) {
    const name = problem.name ?? basename(problem.dir);
    const enabled = isNamedIn(o.config.enabled, { name, aliases: [basename(problem.dir)] });
    if (enabled) logger.warn(`plugin ${name} not loaded (invalid): ${problem.message}`);
    statuses.push({
      name,
      source: problem.source,
      dir: problem.dir,
      enabled,
      state: 'invalid',
      message: problem.message,
      registered: noRegistrations(),
    });
  }
  return {
    statuses,
    tools: [...registry.tools.values()],
    hooks: new HookRunner(registry.hooks, {
      defaultTimeoutMs: o.config.hook_timeout_ms,
      logger,
    }),
    commands: registry.commands,
    platforms: registry.platforms,
    memoryProviders: registry.memoryProviders,
    contextEngines: registry.contextEngines,
    availableStrategies: strategiesOffered(plans),
  };
}
