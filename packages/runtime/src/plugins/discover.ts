/**
 * Finding plugins: every folder of every source whose `package.json` has a `"hermes"` field.
 * Nothing of a plugin runs here; only its `package.json` is read.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { PluginPackageField } from '@hermes/plugin-sdk';
import { readPluginPackage } from './package-manifest.js';
import { aliasesOf } from './plugin-names.js';

/** Where a plugin was found; later sources override earlier ones of the same name. */
export type PluginSource = 'bundled' | 'user' | 'npm' | 'project';

/** A plugin found on disk, valid enough to load. */
export interface DiscoveredPlugin {
  /** The package.json name. */
  readonly name: string;
  /** What users may also write in `plugins.enabled`: the folder name, the name without scope. */
  readonly aliases: readonly string[];
  readonly version: string;
  readonly description?: string;
  readonly source: PluginSource;
  /** The plugin's folder (real path). */
  readonly dir: string;
  /** The entry file (absolute real path). */
  readonly entry: string;
  /** The validated `"hermes"` field of its package.json. */
  readonly manifest: PluginPackageField;
}

/** A plugin folder that cannot be loaded; reported as `invalid`. */
export interface DiscoveryProblem {
  readonly dir: string;
  readonly source: PluginSource;
  readonly message: string;
  /** The package.json name, when it has a readable one. */
  readonly name?: string;
}

/** Where to look. */
export interface DiscoverOptions {
  readonly hermesHome: string;
  /** The project folder whose `.hermes/plugins` is searched (default `process.cwd()`). */
  readonly cwd?: string;
  /** For `HERMES_ENABLE_PROJECT_PLUGINS` (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
  /** Plugin folders shipped with the app, each one plugin. */
  readonly bundledDirs?: readonly string[];
}

/** The result of {@link discoverPlugins}. */
export interface Discovery {
  plugins: DiscoveredPlugin[];
  problems: DiscoveryProblem[];
}

interface Candidate {
  readonly folder: string;
  readonly source: PluginSource;
}

/** The sub-folders of `dir`, sorted; none when it does not exist. */
async function subfolders(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries
      .filter((e) => (e.isDirectory() || e.isSymbolicLink()) && !e.name.startsWith('.'))
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

/** Packages under a `node_modules` folder, scoped ones included. */
async function npmPackages(nodeModules: string): Promise<string[]> {
  const out: string[] = [];
  for (const name of await subfolders(nodeModules)) {
    if (name.startsWith('@')) {
      for (const inner of await subfolders(join(nodeModules, name))) {
        out.push(join(nodeModules, name, inner));
      }
    } else {
      out.push(join(nodeModules, name));
    }
  }
  return out;
}

async function candidates(o: DiscoverOptions): Promise<Candidate[]> {
  const env = o.env ?? process.env;
  const userRoot = join(o.hermesHome, 'plugins');
  const list: Candidate[] = (o.bundledDirs ?? []).map((folder) => ({ folder, source: 'bundled' }));
  for (const name of await subfolders(userRoot)) {
    if (name !== 'node_modules') list.push({ folder: join(userRoot, name), source: 'user' });
  }
  for (const folder of await npmPackages(join(userRoot, 'node_modules'))) {
    list.push({ folder, source: 'npm' });
  }
  if (env.HERMES_ENABLE_PROJECT_PLUGINS === '1') {
    const projectRoot = join(o.cwd ?? process.cwd(), '.hermes', 'plugins');
    for (const name of await subfolders(projectRoot)) {
      list.push({ folder: join(projectRoot, name), source: 'project' });
    }
  }
  return list;
}

/**
 * Finds the plugins of every source: the bundled folders, `HERMES_HOME/plugins/<dir>`, npm
 * packages under `HERMES_HOME/plugins/node_modules` (scoped too; packages without a `"hermes"`
 * field are dependencies and skipped), and `./.hermes/plugins/<dir>` only when
 * `HERMES_ENABLE_PROJECT_PLUGINS=1`. A later source overrides an earlier one by package name.
 */
export async function discoverPlugins(o: DiscoverOptions): Promise<Discovery> {
  const byName = new Map<string, DiscoveredPlugin>();
  const problems: DiscoveryProblem[] = [];
  for (const { folder, source } of await candidates(o)) {
    const read = await readPluginPackage(folder);
    if (!read.ok) {
      if (source === 'npm' && read.notAPlugin) continue;
      const named = read.name === undefined ? {} : { name: read.name };
      problems.push({ dir: folder, source, message: read.message, ...named });
      continue;
    }
    byName.delete(read.name); // re-inserted last: load order follows precedence
    byName.set(read.name, {
      name: read.name,
      aliases: aliasesOf(read.name, folder),
      version: read.version,
      ...(read.description === undefined ? {} : { description: read.description }),
      source,
      dir: read.dir,
      entry: read.entry,
      manifest: read.manifest,
    });
  }
  return { plugins: [...byName.values()], problems };
}
