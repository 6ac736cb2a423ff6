// @ts-check
/**
 * A cache of native addons built by the matrix, outside the repository (a CI run starts from a
 * clean clone; compiling SQLite twice took 1.5–3 minutes of it). An entry is one
 * `better_sqlite3.node`, keyed by everything that decides its bytes: platform, architecture,
 * the exact Node release (and its ABI), and the exact addon version (whose sources pin SQLite).
 * A hit is still loaded in that Node before any smoke; `NODE_MATRIX_NO_CACHE=1` builds anyway.
 */
import { copyFileSync, existsSync, mkdirSync, renameSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/** Where node-gyp puts the addon in a package, and where `bindings` looks first. */
export const BUILT_ADDON = join('build', 'Release', 'better_sqlite3.node');

/**
 * The cache folder: `$NODE_MATRIX_CACHE`, else `$XDG_CACHE_HOME/hermes-node-matrix`, else
 * `~/.cache/hermes-node-matrix`.
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {string}
 */
export function addonCacheDir(env = process.env) {
  if (env.NODE_MATRIX_CACHE) return env.NODE_MATRIX_CACHE;
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'hermes-node-matrix');
}

/**
 * The cache entry's file name for one build.
 * @param {{ version: string, abi: string }} release
 * @param {string} addonVersion
 * @param {{ platform?: string, arch?: string }} [host]
 * @returns {string}
 */
export function addonCacheKey(release, addonVersion, host = process) {
  const parts = [host.platform, host.arch, `node-${release.version}`, `abi-${release.abi}`];
  return `${parts.join('-')}-better-sqlite3-${addonVersion}.node`;
}

/**
 * Copies a cached build into `addonDir`; resolves whether there was one.
 * @param {string} cacheDir
 * @param {string} key
 * @param {string} addonDir
 * @returns {boolean}
 */
export function restoreAddon(cacheDir, key, addonDir) {
  const cached = join(cacheDir, key);
  if (!existsSync(cached)) return false;
  const target = join(addonDir, BUILT_ADDON);
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(cached, target);
  return true;
}

/**
 * Keeps `addonDir`'s fresh build under `key`: written beside the entry, then renamed, so a
 * concurrent or interrupted run never sees half a file.
 * @param {string} cacheDir
 * @param {string} key
 * @param {string} addonDir
 */
export function storeAddon(cacheDir, key, addonDir) {
  mkdirSync(cacheDir, { recursive: true });
  const partial = join(cacheDir, `${key}.${process.pid}.partial`);
  copyFileSync(join(addonDir, BUILT_ADDON), partial);
  renameSync(partial, join(cacheDir, key));
}
