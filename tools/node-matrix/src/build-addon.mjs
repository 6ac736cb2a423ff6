// @ts-check
/**
 * Builds the staged native addon from source for one Node release, with node-gyp run by that
 * release's own `node` against that release's headers (`--nodedir`, and `npm_config_nodedir`
 * for anything node-gyp starts), then loads it in that Node to prove the build is usable.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addonCacheDir, addonCacheKey, restoreAddon, storeAddon } from './addon-cache.mjs';
import { describeExit, outputTail, runProcess } from './run-process.mjs';

/**
 * @typedef {import('./node-release.mjs').NodeRelease} NodeRelease
 * @typedef {{ ms: number, sqlite: string, log: string, cached: boolean }} AddonBuild
 */

/**
 * Only a guard against a hung compiler: compiling SQLite's amalgamation takes about 1.5 minutes
 * of CPU, but took almost 9 minutes on a 2-core machine shared with other work.
 */
const BUILD_TIMEOUT_MS = 1_200_000;

/**
 * The node-gyp that npm bundles (what `npm rebuild` would use), or `NODE_GYP` when set:
 * a path to `node-gyp.js`. Nothing is downloaded.
 * @returns {Promise<string>}
 */
export async function findNodeGyp() {
  // Destructured: the matrix runs outside turbo, so these are no turbo task's inputs.
  const { NODE_GYP: override, npm_config_node_gyp: npmScriptGyp } = process.env;
  const candidates = [override, npmScriptGyp];
  const root = await runProcess('npm', ['root', '-g'], { timeoutMs: 60_000 });
  if (root.code === 0) {
    candidates.push(
      join(root.stdout.trim(), 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
    );
  }
  const found = candidates.find((path) => path && existsSync(path));
  if (!found) {
    throw new Error(
      "node-gyp not found: npm's bundled copy is missing; set NODE_GYP=/path/to/node-gyp.js",
    );
  }
  return found;
}

/**
 * Runs `node-gyp rebuild --release` in `addonDir` for `release`, writing the whole build log to
 * `logFile`, and keeps the result in the addon cache (`addon-cache.mjs`) — or takes it from there
 * when this exact Node and addon were built before; then loads the addon in that release's Node
 * and opens an in-memory database.
 * @param {string} addonDir the staged package (see stage-cli.mjs)
 * @param {NodeRelease} release
 * @param {string} nodeGyp path to node-gyp.js
 * @param {string} logFile
 * @returns {Promise<AddonBuild>}
 */
export async function buildAddon(addonDir, release, nodeGyp, logFile) {
  const { version } = JSON.parse(readFileSync(join(addonDir, 'package.json'), 'utf8'));
  const cacheDir = addonCacheDir();
  const key = addonCacheKey(release, version);
  // Destructured: the matrix runs outside turbo, so this is no turbo task's input.
  const { NODE_MATRIX_NO_CACHE: noCache } = process.env;
  if (!noCache && restoreAddon(cacheDir, key, addonDir)) {
    writeFileSync(logFile, `restored from ${join(cacheDir, key)}\n`);
    return { ms: 0, sqlite: await loadAddon(addonDir, release), log: logFile, cached: true };
  }
  const built = await compileAddon(addonDir, release, nodeGyp, logFile);
  storeAddon(cacheDir, key, addonDir);
  return built;
}

/**
 * The compile itself (see {@link buildAddon}).
 * @param {string} addonDir
 * @param {NodeRelease} release
 * @param {string} nodeGyp
 * @param {string} logFile
 * @returns {Promise<AddonBuild>}
 */
async function compileAddon(addonDir, release, nodeGyp, logFile) {
  const env = {
    ...process.env,
    // Overrides the `/usr` that .ci/run sets for the repository's own Node.
    npm_config_nodedir: release.dir,
    // Anything the build runs as `node` is this release.
    PATH: `${join(release.dir, 'bin')}:${process.env.PATH ?? ''}`,
  };
  const args = [nodeGyp, 'rebuild', '--release', `--nodedir=${release.dir}`, '--jobs=max'];
  const build = await runProcess(release.node, args, {
    cwd: addonDir,
    env,
    timeoutMs: BUILD_TIMEOUT_MS,
  });
  writeFileSync(logFile, `$ node ${args.join(' ')}\n${build.stdout}\n${build.stderr}`);
  if (build.code !== 0) {
    throw new Error(
      `node-gyp rebuild failed (${describeExit(build)}); log: ${logFile}\n${outputTail(build)}`,
    );
  }
  const sqlite = await loadAddon(addonDir, release);
  return { ms: build.ms, sqlite, log: logFile, cached: false };
}

/**
 * Loads the built addon in `release`'s Node and asks SQLite its version: a wrong ABI or a
 * broken link fails here, before any smoke.
 * @param {string} addonDir
 * @param {NodeRelease} release
 * @returns {Promise<string>} the SQLite version
 */
async function loadAddon(addonDir, release) {
  const probe = `const D = require(${JSON.stringify(addonDir)});
    process.stdout.write(new D(':memory:').prepare('select sqlite_version() v').get().v);`;
  const loaded = await runProcess(release.node, ['-e', probe]);
  if (loaded.code !== 0 || !/^\d+\.\d+/.test(loaded.stdout)) {
    throw new Error(
      `the built addon does not load in Node ${release.version}\n${outputTail(loaded)}`,
    );
  }
  return loaded.stdout;
}
