/**
 * The plugins of one `hermes chat` run: loaded only when config.yaml asks for one (so a run
 * without plugins reads and imports nothing more), each problem said once on stderr and logged,
 * and what they give the agent. A `memory.provider` / `context.engine` nothing provides stops the
 * run with a message naming the available ones.
 */
import type { TextSink } from '@hermes/config';
import {
  type AgentPluginParts,
  agentPluginParts,
  bundledPluginDirs,
  type HermesConfig,
  type LoadedPlugins,
  loadConfiguredPlugins,
  NO_PLUGIN_PARTS,
  type PluginHostLogger,
  pluginsWanted,
} from '@hermes/runtime';
import type { Logger } from '../logging/logger.js';
import { hostLogger } from './host-logger.js';

/** Loads what `config` enables or selects; problems reported through `logger`. */
export function loadCliPlugins(
  config: HermesConfig,
  options: {
    readonly cwd: string;
    readonly logger: PluginHostLogger;
    readonly only?: { readonly command: string };
    readonly always?: boolean;
  },
): Promise<LoadedPlugins> {
  return loadConfiguredPlugins(config, {
    bundledDirs: bundledPluginDirs(import.meta.url),
    cwd: options.cwd,
    logger: options.logger,
    ...(options.only ? { only: options.only } : {}),
    ...(options.always ? { always: true } : {}),
  });
}

/**
 * The plugin parts for the chat's agents, or an error line (an unknown `memory.provider` /
 * `context.engine`) to print before exiting 1.
 */
export async function chatPluginParts(
  config: HermesConfig,
  options: { readonly cwd: string; readonly stderr: TextSink; readonly log?: Logger },
): Promise<AgentPluginParts | { readonly error: string }> {
  if (!pluginsWanted(config)) return NO_PLUGIN_PARTS;
  const loaded = await loadCliPlugins(config, {
    cwd: options.cwd,
    logger: hostLogger(options.stderr, options.log),
  });
  try {
    return agentPluginParts(config, loaded);
  } catch (error) {
    return { error: (error as Error).message };
  }
}
