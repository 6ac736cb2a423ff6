/**
 * Which discovered plugins load: those named in `plugins.enabled`, and the one providing the
 * selected memory provider or context engine — never one named in `plugins.disabled`.
 */
import type { DiscoveredPlugin } from './discover.js';
import { isNamedIn } from './plugin-names.js';
import type { PluginsSection } from './plugins-section.js';

/** Strategies chosen by config; choosing one enables the plugin that provides it. */
export interface StrategySelection {
  readonly memoryProvider?: string;
  readonly contextEngine?: string;
}

/** What to do with one plugin. */
export interface PluginPlan {
  readonly plugin: DiscoveredPlugin;
  readonly enabled: boolean;
  /** Load it now; otherwise its state is `disabled` or `not_enabled`. */
  readonly load: boolean;
  readonly disabled: boolean;
  readonly message?: string;
}

/** The provider of `name` among `plugins` (the later source wins), if any. */
function providerOf(
  plugins: readonly DiscoveredPlugin[],
  name: string | undefined,
  kind: 'memoryProviders' | 'contextEngines',
): DiscoveredPlugin | undefined {
  if (name === undefined) return undefined;
  return plugins.findLast((p) => p.manifest.provides[kind]?.includes(name) === true);
}

/**
 * Plans every plugin. With `onlyCommand`, only the enabled plugin whose manifest provides that
 * command loads (the others are listed as not loaded).
 */
export function planPlugins(
  discovered: readonly DiscoveredPlugin[],
  section: PluginsSection,
  select: StrategySelection = {},
  onlyCommand?: string,
): PluginPlan[] {
  const usable = discovered.filter((p) => !isNamedIn(section.disabled, p));
  const selected = new Set(
    [
      providerOf(usable, select.memoryProvider, 'memoryProviders'),
      providerOf(usable, select.contextEngine, 'contextEngines'),
    ].filter((p) => p !== undefined),
  );
  return discovered.map((plugin): PluginPlan => {
    if (isNamedIn(section.disabled, plugin)) {
      return { plugin, enabled: false, load: false, disabled: true };
    }
    const enabled = isNamedIn(section.enabled, plugin) || selected.has(plugin);
    if (enabled && onlyCommand !== undefined) {
      if (plugin.manifest.provides.commands?.includes(onlyCommand) !== true) {
        const message = `not loaded: only the plugin providing "${onlyCommand}" was`;
        return { plugin, enabled, load: false, disabled: false, message };
      }
    }
    return { plugin, enabled, load: enabled, disabled: false };
  });
}
