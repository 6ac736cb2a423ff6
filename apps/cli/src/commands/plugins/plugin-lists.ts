/**
 * `plugins.enabled` and `plugins.disabled` in config.yaml, edited through the runtime's config
 * editor (comments and the rest of the file kept; an edit that would make the file invalid is
 * refused before anything is written).
 */
import { getConfigValue, setConfigValue } from '@hermes/runtime';

/** One of the two lists. */
export type PluginList = 'enabled' | 'disabled';

/** A plugin as the lists may name it: its package name or one of its aliases (folder name, …). */
export interface PluginRef {
  readonly name: string;
  readonly aliases: readonly string[];
}

type Env = Readonly<Record<string, string | undefined>>;

/** Whether a list entry names `plugin`. */
export function refersTo(entry: string, plugin: PluginRef): boolean {
  return entry === plugin.name || plugin.aliases.includes(entry);
}

/** The entries of `plugins.<list>` (strings only; absent or not a list: none). */
export function readPluginList(hermesHome: string, list: PluginList): string[] {
  const value = getConfigValue(hermesHome, ['plugins', list]);
  return Array.isArray(value)
    ? value.filter((item): item is string => typeof item === 'string')
    : [];
}

/** What an edit changed: each line says it, e.g. `added hello to plugins.enabled`. */
export interface ListEdit {
  readonly changes: readonly string[];
}

/**
 * Makes `plugin` appear in `add` (by its package name, unless an entry already names it) and
 * disappear from every list in `remove` (every entry naming it). Touches only lists that change.
 */
export function editPluginLists(
  hermesHome: string,
  env: Env,
  plugin: PluginRef,
  edit: { readonly add?: PluginList; readonly remove: readonly PluginList[] },
): ListEdit {
  const changes: string[] = [];
  for (const list of edit.remove) {
    const entries = readPluginList(hermesHome, list);
    const kept = entries.filter((entry) => !refersTo(entry, plugin));
    if (kept.length === entries.length) continue;
    setConfigValue(hermesHome, ['plugins', list], kept, env);
    changes.push(`removed ${plugin.name} from plugins.${list}`);
  }
  if (edit.add !== undefined) {
    const entries = readPluginList(hermesHome, edit.add);
    if (!entries.some((entry) => refersTo(entry, plugin))) {
      setConfigValue(hermesHome, ['plugins', edit.add], [...entries, plugin.name], env);
      changes.push(`added ${plugin.name} to plugins.${edit.add}`);
    }
  }
  return { changes };
}
