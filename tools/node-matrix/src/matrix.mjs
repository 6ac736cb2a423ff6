// @ts-check
/**
 * One Node version's pass through the matrix: fetch the release from npm, stage the built CLI,
 * build the native addon for that release, then run the smoke with that release's `node`.
 * Releases are prepared concurrently (downloading one overlaps compiling another); smokes run
 * one at a time so their timings and output stay readable.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildAddon } from './build-addon.mjs';
import { fetchNodeRelease } from './node-release.mjs';
import { describeExit, runProcess } from './run-process.mjs';
import { ADDON, stageCli } from './stage-cli.mjs';

/**
 * @typedef {import('./node-release.mjs').NodeRelease} NodeRelease
 * @typedef {{ release: NodeRelease, cliDir: string, buildMs: number, cached: boolean }} Prepared
 * @typedef {{ spec: string, version: string, ok: boolean, summary: string }} VersionOutcome
 */

/** bin/smoke.mjs, run by each release's own node. */
const SMOKE = fileURLToPath(new URL('../bin/smoke.mjs', import.meta.url));

/** What must be built before the matrix can run: the CLI bundle and the testkit server. */
export const REQUIRED_BUILDS = ['apps/cli/dist/bin.js', 'packages/testkit/dist/index.js'];

/**
 * The required builds missing from `repoRoot`.
 * @param {string} repoRoot
 * @returns {string[]}
 */
export function missingBuilds(repoRoot) {
  return REQUIRED_BUILDS.filter((path) => !existsSync(join(repoRoot, path)));
}

/**
 * Fetches, stages and builds for one version spec; throws with the reason on failure.
 * @param {{ repoRoot: string, work: string, nodeGyp: string, log: (line: string) => void }} ctx
 * @param {string} spec
 * @returns {Promise<Prepared>}
 */
export async function prepare(ctx, spec) {
  const started = performance.now();
  const release = await fetchNodeRelease(spec, join(ctx.work, `node-${spec}`));
  const fetched = seconds(performance.now() - started);
  ctx.log(
    `Node ${release.version} (ABI ${release.abi}) from npm in ${fetched}; building ${ADDON}…`,
  );
  const staged = stageCli(ctx.repoRoot, join(ctx.work, `stage-${release.version}`));
  const log = join(ctx.work, `build-${release.version}.log`);
  const built = await buildAddon(staged.addonDir, release, ctx.nodeGyp, log);
  const addonVersion = JSON.parse(readFileSync(join(staged.addonDir, 'package.json'), 'utf8'));
  const how = built.cached
    ? 'from the build cache (built from source by an earlier run; NODE_MATRIX_NO_CACHE=1 rebuilds)'
    : `built in ${seconds(built.ms)}`;
  ctx.log(
    `Node ${release.version}: ${ADDON} ${addonVersion.version} ${how} (SQLite ${built.sqlite})`,
  );
  return { release, cliDir: staged.cliDir, buildMs: built.ms, cached: built.cached };
}

/**
 * Runs the smoke for a prepared release, its output passed through line by line.
 * @param {Prepared} prepared
 * @param {(line: string) => void} print
 * @returns {Promise<{ ok: boolean, ms: number, detail: string }>}
 */
export async function smoke(prepared, print) {
  const run = await runProcess(prepared.release.node, [SMOKE, prepared.cliDir], {
    timeoutMs: 600_000,
  });
  for (const line of `${run.stdout}${run.stderr}`.trimEnd().split('\n')) print(line);
  const ok = run.code === 0 && run.stdout.includes(' PASS\n');
  return { ok, ms: run.ms, detail: ok ? '' : describeExit(run) };
}

/**
 * Milliseconds as whole seconds, for progress lines.
 * @param {number} ms
 * @returns {string}
 */
export function seconds(ms) {
  return `${Math.round(ms / 1000)} s`;
}
