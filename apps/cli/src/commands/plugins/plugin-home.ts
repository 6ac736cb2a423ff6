/** Where plugins live in the data home. */
import { join } from 'node:path';
import { storageFolderName } from '@hermes/runtime';

/** `HERMES_HOME/plugins`: user plugin folders, and npm's `--prefix` for npm plugins. */
export function pluginsRoot(hermesHome: string): string {
  return join(hermesHome, 'plugins');
}

/** `HERMES_HOME/plugin-data/<name>` (`/` → `__`): a plugin's private folder, its `ctx.storage`. */
export function pluginDataDir(hermesHome: string, name: string): string {
  return join(hermesHome, 'plugin-data', storageFolderName(name));
}
