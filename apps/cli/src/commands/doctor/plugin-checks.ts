/**
 * The plugins line of `hermes doctor`: every enabled plugin that did not load (and why), and a
 * `memory.provider` / `context.engine` no loaded plugin provides — which stops `hermes chat`.
 */
import {
  agentPluginParts,
  type HermesConfig,
  type PluginStatus,
  pluginsWanted,
  SILENT_HOST_LOGGER,
} from '@hermes/runtime';
import { loadCliPlugins } from '../../chat/chat-plugins.js';
import type { CheckResult } from './check-result.js';

function describeStatus(status: PluginStatus): string {
  const state = status.state.replace('_', ' ');
  return `${status.name}: ${state}${status.message ? ` — ${status.message}` : ''}`;
}

/** Loads the plugins `config` asks for, as `hermes chat` would, and reports what went wrong. */
export async function checkPlugins(config: HermesConfig, cwd: string): Promise<CheckResult> {
  if (!pluginsWanted(config)) {
    return { name: 'plugins', status: 'ok', detail: 'none enabled' };
  }
  const loaded = await loadCliPlugins(config, { cwd, logger: SILENT_HOST_LOGGER });
  try {
    agentPluginParts(config, loaded);
  } catch (error) {
    return {
      name: 'plugins',
      status: 'fail',
      detail: (error as Error).message,
      fix: 'select an available strategy, or enable the plugin that provides it',
    };
  }
  const enabled = loaded.statuses.filter((s) => s.enabled);
  const broken = enabled.filter((s) => s.state !== 'loaded');
  if (broken.length > 0) {
    return {
      name: 'plugins',
      status: 'warn',
      detail: broken.map(describeStatus).join('\n'),
      fix: "fix the plugin, or turn it off with 'hermes plugins disable <name>' (details: hermes plugins list)",
    };
  }
  const names = enabled.map((s) => s.name).join(', ');
  return { name: 'plugins', status: 'ok', detail: `${enabled.length} loaded: ${names}` };
}
