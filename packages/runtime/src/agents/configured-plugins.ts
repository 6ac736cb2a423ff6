/**
 * Loading the plugins a configuration asks for, the same way in both binaries: nothing at all
 * (no folder read, nothing imported) unless `plugins.enabled` names one or `memory.provider` /
 * `context.engine` selects something other than the built-in strategy.
 */
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type { HermesConfig } from '../config/hermes-config.js';
import type { PluginHostLogger } from '../plugins/host-logger.js';
import { EMPTY_PLUGINS, type LoadedPlugins, loadPlugins } from '../plugins/load-plugins.js';
import { PluginsSectionSchema } from '../plugins/plugins-section.js';
import {
  BUILTIN_CONTEXT_ENGINE,
  BUILTIN_MEMORY_PROVIDER,
  builtinToolNames,
} from './agent-plugins.js';

/** The plugins shipped with Hermes, by package name (resolved from the app's own folder). */
export const BUNDLED_PLUGIN_PACKAGES: readonly string[] = [
  '@hermes/plugin-memory-holographic',
  '@hermes/plugin-platform-telegram',
  '@hermes/plugin-platform-discord',
  '@hermes/plugin-platform-slack',
];

/**
 * The folders of the bundled plugins that resolve from `fromUrl` (an app's `import.meta.url`);
 * a package that does not resolve (not installed) is left out.
 */
export function bundledPluginDirs(fromUrl: string | URL): string[] {
  const require = createRequire(fromUrl);
  const dirs: string[] = [];
  for (const name of BUNDLED_PLUGIN_PACKAGES) {
    try {
      dirs.push(dirname(require.resolve(`${name}/package.json`)));
    } catch {
      // Not installed beside this app: nothing to offer.
    }
  }
  return dirs;
}

/** True when `config` enables a plugin or selects a strategy only a plugin can provide. */
export function pluginsWanted(config: HermesConfig): boolean {
  const memory = config.memory?.provider ?? BUILTIN_MEMORY_PROVIDER;
  const engine = config.contextEngine ?? BUILTIN_CONTEXT_ENGINE;
  return (
    (config.plugins?.enabled.length ?? 0) > 0 ||
    memory !== BUILTIN_MEMORY_PROVIDER ||
    engine !== BUILTIN_CONTEXT_ENGINE
  );
}

/** Options of {@link loadConfiguredPlugins}. */
export interface ConfiguredPluginsOptions {
  /** The bundled plugins' folders ({@link bundledPluginDirs}). */
  readonly bundledDirs?: readonly string[];
  /** The project folder (`./.hermes/plugins/` with `HERMES_ENABLE_PROJECT_PLUGINS=1`). */
  readonly cwd?: string;
  /** Where each plugin problem is reported once. */
  readonly logger?: PluginHostLogger;
  /** Load only the plugin that provides this command (`hermes <command>`). */
  readonly only?: { readonly command: string };
  /** Also discover (and list) plugins when nothing is enabled: `hermes plugins list`. */
  readonly always?: boolean;
}

/**
 * Loads what `config` asks for; {@link EMPTY_PLUGINS} without reading anything when it asks
 * for nothing. Never throws for a broken plugin: its status says what went wrong.
 */
export async function loadConfiguredPlugins(
  config: HermesConfig,
  options: ConfiguredPluginsOptions = {},
): Promise<LoadedPlugins> {
  if (!options.always && !pluginsWanted(config)) return EMPTY_PLUGINS;
  const memory = config.memory?.provider ?? BUILTIN_MEMORY_PROVIDER;
  const engine = config.contextEngine ?? BUILTIN_CONTEXT_ENGINE;
  return loadPlugins({
    hermesHome: config.hermesHome,
    ...(options.cwd ? { cwd: options.cwd } : {}),
    ...(config.env ? { env: config.env as NodeJS.ProcessEnv } : {}),
    bundledDirs: options.bundledDirs ?? [],
    config: config.plugins ?? PluginsSectionSchema.parse({}),
    select: {
      ...(memory === BUILTIN_MEMORY_PROVIDER ? {} : { memoryProvider: memory }),
      ...(engine === BUILTIN_CONTEXT_ENGINE ? {} : { contextEngine: engine }),
    },
    builtinToolNames: builtinToolNames(),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.only ? { only: options.only } : {}),
  });
}
