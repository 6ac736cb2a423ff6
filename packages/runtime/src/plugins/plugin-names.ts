/** The names a plugin answers to: its package name, aliases, short name and storage folder. */
import { basename } from 'node:path';

/** The package name without its `@scope/`. */
export function unscopedName(name: string): string {
  return name.includes('/') ? name.slice(name.indexOf('/') + 1) : name;
}

/**
 * What users may write instead of the package name: the folder's name, the unscoped name, and the
 * short name (`platform-telegram` for `@hermes/plugin-platform-telegram`, whatever folder npm or a
 * workspace put it in).
 */
export function aliasesOf(name: string, folder: string): string[] {
  return [...new Set([basename(folder), unscopedName(name), shortNameOf(name)])].filter(
    (alias) => alias !== name,
  );
}

/**
 * The default toolset of a plugin's tools: the unscoped name without a `hermes-plugin-` or
 * `plugin-` prefix (`@hermes/plugin-memory-holographic` → `memory-holographic`,
 * `hermes-plugin-hello` → `hello`).
 */
export function shortNameOf(name: string): string {
  const unscoped = unscopedName(name);
  for (const prefix of ['hermes-plugin-', 'plugin-']) {
    if (unscoped.startsWith(prefix) && unscoped.length > prefix.length) {
      return unscoped.slice(prefix.length);
    }
  }
  return unscoped;
}

/** The folder under `HERMES_HOME/plugin-data`: the name with `/` replaced by `__`. */
export function storageFolderName(name: string): string {
  return name.replaceAll('/', '__');
}

/** True when `list` names the plugin by its package name or an alias. */
export function isNamedIn(
  list: readonly string[],
  plugin: { readonly name: string; readonly aliases: readonly string[] },
): boolean {
  return list.includes(plugin.name) || plugin.aliases.some((alias) => list.includes(alias));
}
