/**
 * Reading one plugin folder exactly as discovery will: its package.json validated with the SDK's
 * `PluginPackageJsonSchema` (each bad field named) and its entry file found. Discovery is asked
 * about that one folder alone, so an install accepts what the host will load and nothing else.
 */
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { discoverPlugins } from '@hermes/runtime';

/** A valid plugin folder. */
export interface PluginFolder {
  readonly ok: true;
  readonly name: string;
  readonly version: string;
  /** The folder's real path. */
  readonly dir: string;
}

/** A folder that is not a loadable plugin: why, and its package name when it has one. */
export interface PluginFolderProblem {
  readonly ok: false;
  readonly message: string;
  readonly name?: string;
}

/** Reads the plugin in `dir`; never throws. */
export async function readPluginFolder(dir: string): Promise<PluginFolder | PluginFolderProblem> {
  // Only `dir` is searched: bundled folders are the source given one folder at a time, and the
  // data home named is a path that does not exist, so no other source adds anything.
  const found = await discoverPlugins({
    hermesHome: join(tmpdir(), `hermes-no-home-${randomUUID()}`),
    bundledDirs: [dir],
    env: {},
    cwd: dir,
  });
  const plugin = found.plugins[0];
  if (plugin) return { ok: true, name: plugin.name, version: plugin.version, dir: plugin.dir };
  const problem = found.problems[0];
  return {
    ok: false,
    message: problem?.message ?? 'no package.json',
    ...(problem?.name === undefined ? {} : { name: problem.name }),
  };
}
