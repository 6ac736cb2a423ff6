#!/usr/bin/env node
// @ts-check
/**
 * Usage: node tools/node-matrix/bin/node-matrix.mjs [--keep] [VERSION...]   (default: 22 24)
 *
 * For each Node VERSION (a major such as 24, or an exact 24.21.0), from the Node binaries
 * published on the npm registry: builds the native addon (better-sqlite3) for that Node and runs
 * the end-to-end smoke of the built `hermes` CLI with it (see ../README.md). Needs the
 * repository built first (`pnpm run build`). Prints one `node-matrix: Node X PASS|FAIL` line per
 * version and exits 1 when any failed. `--keep` keeps the scratch folder (releases, staged
 * copies, build logs) and prints where it is.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { findNodeGyp } from '../src/build-addon.mjs';
import { missingBuilds, prepare, seconds, smoke } from '../src/matrix.mjs';

const DEFAULT_VERSIONS = ['22', '24'];
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const argv = process.argv.slice(2);
const keep = argv.includes('--keep');
const specs = argv.filter((arg) => arg !== '--keep');
const versions = specs.length > 0 ? specs : DEFAULT_VERSIONS;

const missing = missingBuilds(repoRoot);
if (missing.length > 0) {
  console.error(`node-matrix: build first (pnpm run build); missing: ${missing.join(', ')}`);
  process.exit(1);
}

const started = performance.now();
const work = mkdtempSync(`${tmpdir()}/hermes-node-matrix-`);
const nodeGyp = await findNodeGyp();
console.log(`node-matrix: Node ${versions.join(', ')} from the npm registry; node-gyp ${nodeGyp}`);

// Fetch and build concurrently: one release downloads while another compiles.
const prepared = await Promise.allSettled(
  versions.map((spec) =>
    prepare({ repoRoot, work, nodeGyp, log: (line) => console.log(`[${spec}] ${line}`) }, spec),
  ),
);

/** @type {string[]} */
const verdicts = [];
for (const [i, spec] of versions.entries()) {
  const outcome = /** @type {PromiseSettledResult<import('../src/matrix.mjs').Prepared>} */ (
    prepared[i]
  );
  if (outcome.status === 'rejected') {
    const reason =
      outcome.reason instanceof Error ? outcome.reason.message : String(outcome.reason);
    console.log(`[${spec}] ${reason.replaceAll('\n', `\n[${spec}] `)}`);
    verdicts.push(`node-matrix: Node ${spec} FAIL (fetch or build of the native addon)`);
    continue;
  }
  const { release, buildMs, cached } = outcome.value;
  console.log(`[${spec}] smoke with Node ${release.version}:`);
  const result = await smoke(outcome.value, (line) => console.log(`[${spec}] ${line}`));
  const timing = `addon ${cached ? 'from cache' : `build ${seconds(buildMs)}`}, smoke ${seconds(result.ms)}`;
  verdicts.push(
    `node-matrix: Node ${release.version} ${result.ok ? 'PASS' : `FAIL (smoke: ${result.detail})`} (${timing})`,
  );
}

for (const verdict of verdicts) console.log(verdict);
const failed = verdicts.filter((v) => v.includes(' FAIL ')).length;
console.log(
  `node-matrix: ${failed === 0 ? 'PASS' : `FAIL (${failed} of ${versions.length} Node versions)`} in ${seconds(performance.now() - started)}`,
);
if (keep) console.log(`node-matrix: kept ${work}`);
else rmSync(work, { recursive: true, force: true });
process.exitCode = failed === 0 ? 0 : 1;
