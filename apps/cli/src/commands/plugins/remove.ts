/**
 * `hermes plugins remove <name>`: deletes a user plugin's folder from `HERMES_HOME/plugins` (only
 * the link, when the folder there is a symbolic link to a plugin being developed elsewhere) or
 * runs `npm uninstall` for an npm plugin, and takes it out of `plugins.enabled`. Bundled and
 * project plugins are not the data home's to delete. Its data (`plugin-data/<name>`) stays unless
 * `purge`.
 */
import { existsSync, lstatSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandRunner } from './command-runner.js';
import type { FoundPlugin } from './find-plugin.js';
import { uninstallFromNpm } from './npm.js';
import { pluginDataDir, pluginsRoot } from './plugin-home.js';
import { editPluginLists } from './plugin-lists.js';
import { pluginRefusal } from './refusal.js';

type Env = Readonly<Record<string, string | undefined>>;

/** What {@link removePlugin} needs. */
export interface RemovePluginOptions {
  readonly hermesHome: string;
  readonly env: Env;
  readonly runner: CommandRunner;
  /** Delete `HERMES_HOME/plugin-data/<name>` too. */
  readonly purge?: boolean;
}

/** What was done, one line each, for the user. */
export interface RemovedPlugin {
  readonly lines: readonly string[];
}

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

/**
 * The entry of `HERMES_HOME/plugins` that is (or links to) `dir`. Discovery reports real paths,
 * so the entry is found by comparing them: deleting the real path of a link would delete the
 * author's working copy.
 */
function userEntryOf(hermesHome: string, dir: string): string {
  const root = pluginsRoot(hermesHome);
  for (const name of existsSync(root) ? readdirSync(root) : []) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const entry = join(root, name);
    if (entry === dir || realOrNull(entry) === dir) return entry;
  }
  throw pluginRefusal(`cannot find ${dir} under ${root}; nothing was removed.`);
}

function refuseOutsideHome(found: FoundPlugin): never {
  const why =
    found.source === 'bundled'
      ? 'it is bundled with Hermes'
      : `it is a project plugin (${found.dir}), which belongs to the project`;
  throw pluginRefusal(
    `cannot remove ${found.name}: ${why}. To stop it loading: hermes plugins disable ${found.name}`,
  );
}

/**
 * Removes `found` (see the file comment).
 * @throws HermesError `plugins.refused` for a bundled or project plugin, or a failed npm uninstall.
 */
export async function removePlugin(
  found: FoundPlugin,
  o: RemovePluginOptions,
): Promise<RemovedPlugin> {
  const lines: string[] = [];
  if (found.source === 'bundled' || found.source === 'project') refuseOutsideHome(found);
  if (found.source === 'npm') {
    await uninstallFromNpm(found.name, o);
    lines.push(`Uninstalled ${found.name} (npm) from ${pluginsRoot(o.hermesHome)}`);
  } else {
    const entry = userEntryOf(o.hermesHome, found.dir);
    const link = lstatSync(entry).isSymbolicLink();
    rmSync(entry, { recursive: true, force: true });
    lines.push(
      `Removed ${link ? 'the link ' : ''}${entry}${link ? ` (${found.dir} is kept)` : ''}`,
    );
  }
  const edit = editPluginLists(o.hermesHome, o.env, found, { remove: ['enabled'] });
  lines.push(...edit.changes.map((change) => `config.yaml: ${change}`));
  const data = pluginDataDir(o.hermesHome, found.name);
  if (existsSync(data)) {
    if (o.purge) {
      rmSync(data, { recursive: true, force: true });
      lines.push(`Deleted its data, ${data}`);
    } else lines.push(`Kept its data in ${data} (--purge deletes it)`);
  }
  return { lines };
}
