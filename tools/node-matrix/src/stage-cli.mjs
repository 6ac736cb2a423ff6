// @ts-check
/**
 * Stages a copy of the built `hermes` CLI that can be given a native addon built for another
 * Node, without touching the repository's own `node_modules` (built for the Node that ran
 * `pnpm install`).
 *
 * The bundled CLI (`apps/cli/dist/`) is plain JavaScript that runs on any supported Node; its
 * only native dependency, `better-sqlite3`, stays external to the bundle and is resolved from
 * the bundle's own folder upwards. Node resolves modules from a file's real path, so the dist
 * folder is copied (a symlink would resolve back into the repository). The layout mirrors the
 * repository's, so `../package.json` (the version) and the bundled `skills/` folder (found by
 * walking up to `pnpm-workspace.yaml`) are where the CLI looks for them:
 *
 *   <stage>/pnpm-workspace.yaml                    copy
 *   <stage>/skills -> <repo>/skills                link (data only)
 *   <stage>/apps/cli/package.json, dist/           copies
 *   <stage>/apps/cli/node_modules/better-sqlite3/  copy without build/ (built later)
 *   <stage>/apps/cli/node_modules/<its runtime dependencies>
 */
import { cpSync, existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The native addon to rebuild per Node version. */
export const ADDON = 'better-sqlite3';

/**
 * Install-time-only dependencies of the addon: `prebuild-install` downloads a prebuilt binary
 * from GitHub, which the matrix replaces by building from source.
 */
const INSTALL_TIME_ONLY = new Set(['prebuild-install']);

/**
 * @typedef {{ name: string, version: string, dir: string }} InstalledPackage
 * @typedef {{ root: string, cliDir: string, addonDir: string }} StagedCli
 */

/**
 * The folder of `name` as Node would find it from `fromDir`: the first
 * `node_modules/<name>/package.json` walking up, with symlinks resolved (pnpm links each
 * dependency from its own store folder).
 * @param {string} name
 * @param {string} fromDir
 * @returns {string}
 */
export function findPackageDir(name, fromDir) {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    if (dirname(dir) === dir) throw new Error(`cannot find ${name} from ${fromDir}`);
  }
}

/**
 * `name` and the packages it needs at run time, found from `fromDir`, the addon first.
 * @param {string} name
 * @param {string} fromDir
 * @returns {InstalledPackage[]}
 */
export function runtimeClosure(name, fromDir) {
  /** @type {Map<string, InstalledPackage>} */
  const found = new Map();
  /** @param {string} pkgName @param {string} from */
  const visit = (pkgName, from) => {
    const dir = findPackageDir(pkgName, from);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const seen = found.get(pkgName);
    if (seen) {
      if (seen.version !== manifest.version) {
        throw new Error(
          `${pkgName} is needed in two versions (${seen.version}, ${manifest.version})`,
        );
      }
      return;
    }
    found.set(pkgName, { name: pkgName, version: manifest.version, dir });
    for (const dep of Object.keys(manifest.dependencies ?? {})) {
      if (!INSTALL_TIME_ONLY.has(dep)) visit(dep, dir);
    }
  };
  visit(name, fromDir);
  return [...found.values()];
}

/**
 * Copies a package, leaving out its own `node_modules/` (the closure is staged flat) and, for
 * the addon, its `build/` (the repository's Node built it).
 * @param {string} from
 * @param {string} to
 * @param {boolean} isAddon
 */
function copyPackage(from, to, isAddon) {
  const skipped = new Set(
    ['node_modules', ...(isAddon ? ['build'] : [])].map((d) => join(from, d)),
  );
  cpSync(from, to, {
    recursive: true,
    dereference: true,
    filter: (source) => !skipped.has(source),
  });
}

/**
 * Stages the built CLI of `repoRoot` under `stageRoot` (which must not exist yet).
 * @param {string} repoRoot
 * @param {string} stageRoot
 * @returns {StagedCli}
 */
export function stageCli(repoRoot, stageRoot) {
  const repoCli = join(repoRoot, 'apps', 'cli');
  if (!existsSync(join(repoCli, 'dist', 'bin.js'))) {
    throw new Error(`${repoCli}/dist/bin.js does not exist: build first (pnpm run build)`);
  }
  if (existsSync(stageRoot)) throw new Error(`${stageRoot} already exists`);
  const cliDir = join(stageRoot, 'apps', 'cli');
  mkdirSync(join(cliDir, 'node_modules'), { recursive: true });
  cpSync(join(repoRoot, 'pnpm-workspace.yaml'), join(stageRoot, 'pnpm-workspace.yaml'));
  symlinkSync(join(repoRoot, 'skills'), join(stageRoot, 'skills'));
  cpSync(join(repoCli, 'package.json'), join(cliDir, 'package.json'));
  cpSync(join(repoCli, 'dist'), join(cliDir, 'dist'), { recursive: true });
  for (const pkg of runtimeClosure(ADDON, repoCli)) {
    copyPackage(pkg.dir, join(cliDir, 'node_modules', pkg.name), pkg.name === ADDON);
  }
  return { root: stageRoot, cliDir, addonDir: join(cliDir, 'node_modules', ADDON) };
}
