/**
 * The plugins of one gateway run: loaded only when config.yaml asks for one (the same rule as the
 * CLI), the selected memory provider and context engine checked before anything starts, and an
 * adapter created for every enabled `platforms.<name>` that no built-in adapter serves but a
 * loaded plugin registered. A platform nobody serves gets one line saying which plugin offers it
 * (discovery reads package.json files only, and only then).
 */
import type { PlatformAdapter, PlatformSettings } from '@hermes/gateway';
import { agentPluginParts } from '../agents/agent-plugins.js';
import { loadConfiguredPlugins } from '../agents/configured-plugins.js';
import type { HermesConfig } from '../config/hermes-config.js';
import { bounded, messageOf } from '../plugins/bounded.js';
import { discoverPlugins } from '../plugins/discover.js';
import type { PluginHostLogger } from '../plugins/host-logger.js';
import {
  DEFAULT_REGISTER_TIMEOUT_MS,
  EMPTY_PLUGINS,
  type LoadedPlugins,
} from '../plugins/load-plugins.js';
import { KNOWN_ADAPTERS, noAdapterWarning, type PluginAdapters } from './gateway-adapters.js';

/** What the plugins give one gateway: everything the agents get, and platform adapters. */
export interface GatewayPlugins extends PluginAdapters {
  /** Passed to the agent factory: tools, hooks, the selected strategies. */
  readonly loaded: LoadedPlugins;
}

/** No plugins, no plugin adapters. */
export const NO_GATEWAY_PLUGINS: GatewayPlugins = Object.freeze({
  loaded: EMPTY_PLUGINS,
  adapters: new Map(),
  unserved: new Map(),
});

/** Options of {@link loadGatewayPlugins}. */
export interface GatewayPluginsOptions {
  /** The bundled plugins' folders (`bundledPluginDirs(import.meta.url)` of the app). */
  readonly bundledDirs?: readonly string[];
  /** The project folder (`./.hermes/plugins/` with `HERMES_ENABLE_PROJECT_PLUGINS=1`). */
  readonly cwd?: string;
  /** Where each plugin problem is reported once. */
  readonly logger?: PluginHostLogger;
  /** The bound on one plugin's `create` for its platform. Default 10,000 ms. */
  readonly createTimeoutMs?: number;
}

/**
 * Loads what `config` enables or selects and creates the plugin platforms' adapters (nothing is
 * connected: adapters connect when the gateway starts).
 *
 * @throws HermesError `config.unknown_memory_provider` / `config.unknown_context_engine` when
 *   the selected strategy is not provided, before any plugin adapter is created.
 */
export async function loadGatewayPlugins(
  config: HermesConfig,
  options: GatewayPluginsOptions = {},
): Promise<GatewayPlugins> {
  const loaded = await loadConfiguredPlugins(config, {
    ...(options.bundledDirs ? { bundledDirs: options.bundledDirs } : {}),
    ...(options.cwd ? { cwd: options.cwd } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  });
  agentPluginParts(config, loaded); // throws for a selection nothing provides
  const wanted = config.platforms.filter(
    (p) => p.enabled && !Object.hasOwn(KNOWN_ADAPTERS, p.name),
  );
  if (wanted.length === 0) return { ...NO_GATEWAY_PLUGINS, loaded };
  const adapters = new Map<string, PlatformAdapter>();
  const unserved = new Map<string, string>();
  const timeoutMs = options.createTimeoutMs ?? DEFAULT_REGISTER_TIMEOUT_MS;
  for (const platform of wanted) {
    const created = await createPluginAdapter(platform, loaded, timeoutMs);
    if (typeof created === 'string') unserved.set(platform.name, created);
    else if (created) adapters.set(platform.name, created);
  }
  const missing = wanted.filter((p) => !adapters.has(p.name) && !unserved.has(p.name));
  if (missing.length > 0) {
    const offers = await platformOffers(config, options);
    for (const { name } of missing) {
      unserved.set(name, unservedLine(name, offers.get(name), loaded));
    }
  }
  return { loaded, adapters, unserved };
}

/**
 * The adapter the plugin registered for `platform`, built from its entry; the warning when its
 * `create` throws, times out or returns no adapter for that platform; `undefined` when no
 * loaded plugin registered it.
 */
async function createPluginAdapter(
  platform: PlatformSettings,
  loaded: LoadedPlugins,
  timeoutMs: number,
): Promise<PlatformAdapter | string | undefined> {
  const registered = loaded.platforms.get(platform.name);
  if (!registered) return undefined;
  const failed = (why: string) =>
    `platform ${platform.name} is enabled but its adapter from plugin ${registered.plugin} ` +
    `could not be created: ${why}`;
  const result = await bounded(async () => registered.create(platform.raw), timeoutMs);
  if (!result.ok) {
    return failed(result.timedOut ? `create() took over ${timeoutMs} ms` : messageOf(result.error));
  }
  const problem = adapterProblem(result.value, platform.name);
  return problem ? failed(problem) : result.value;
}

/** What is wrong with what a plugin's `create` returned, if anything. */
function adapterProblem(value: unknown, name: string): string | undefined {
  if (value === null || typeof value !== 'object') return 'create() returned no adapter';
  const adapter = value as Partial<Record<keyof PlatformAdapter, unknown>>;
  const missing = (['connect', 'disconnect', 'send', 'capabilities'] as const).filter(
    (method) => typeof adapter[method] !== 'function',
  );
  if (missing.length > 0) return `the adapter has no ${missing.join(', ')} method`;
  if (adapter.platform !== name) {
    return `the adapter says its platform is "${String(adapter.platform)}", not "${name}"`;
  }
  return undefined;
}

/** Platform name → the first plugin found on disk whose manifest offers it (`provides.platforms`). */
async function platformOffers(
  config: HermesConfig,
  options: GatewayPluginsOptions,
): Promise<Map<string, string>> {
  const { plugins } = await discoverPlugins({
    hermesHome: config.hermesHome,
    ...(options.cwd ? { cwd: options.cwd } : {}),
    ...(config.env ? { env: config.env as NodeJS.ProcessEnv } : {}),
    bundledDirs: options.bundledDirs ?? [],
  });
  const offers = new Map<string, string>();
  for (const plugin of plugins) {
    for (const name of plugin.manifest.provides.platforms ?? []) {
      if (!offers.has(name)) offers.set(name, plugin.name);
    }
  }
  return offers;
}

/** Why nothing serves `name`, and what to do about it. */
function unservedLine(name: string, plugin: string | undefined, loaded: LoadedPlugins): string {
  if (plugin === undefined) return noAdapterWarning(name);
  const head = `platform ${name} is enabled but no adapter provides it: `;
  const status = loaded.statuses.find((s) => s.name === plugin);
  switch (status?.state ?? 'not_enabled') {
    case 'not_enabled':
      return `${head}plugin ${plugin} offers it; add it to plugins.enabled in config.yaml`;
    case 'disabled':
      return `${head}plugin ${plugin} offers it but plugins.disabled names it`;
    case 'loaded':
      return `${head}plugin ${plugin} offers it but did not register it`;
    default:
      return `${head}plugin ${plugin} offers it but did not load (${status?.state.replace('_', ' ')})`;
  }
}
