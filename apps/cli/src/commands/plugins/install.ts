/**
 * `hermes plugins install <folder|tarball|npm-spec>`: puts a plugin where discovery finds it,
 * never running anything of it. A folder is copied and a `.tgz` extracted into
 * `HERMES_HOME/plugins/<name>` after its package.json is validated; anything else is an npm spec,
 * installed under `HERMES_HOME/plugins/node_modules` with install scripts off. Nothing is enabled.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { ChildProcessRunner, type CommandRunner, outputTail } from './command-runner.js';
import { installFromNpm } from './npm.js';
import { pluginsRoot } from './plugin-home.js';
import { readPluginFolder } from './read-plugin-folder.js';
import { pluginRefusal } from './refusal.js';

/** What {@link installPlugin} needs. */
export interface InstallPluginOptions {
  readonly hermesHome: string;
  /** Replace a different plugin (or anything else) already in the target folder. */
  readonly force?: boolean;
  /** Runs `npm` and `tar`; default: real child processes. */
  readonly runner?: CommandRunner;
}

/** What was installed. */
export interface InstalledPlugin {
  readonly name: string;
  readonly version: string;
  /** Where it now is. */
  readonly dir: string;
  /** `user` for a folder or tarball, `npm` for an npm spec. */
  readonly source: 'user' | 'npm';
  /** The version it replaced, when the same plugin was there before. */
  readonly replacedVersion?: string;
}

const TARBALL = /\.(tgz|tar\.gz)$/i;

/** Whether `spec` is meant as a local path rather than an npm spec. */
function looksLocal(spec: string): boolean {
  return /^(\.{1,2}[\\/]|[\\/]|~[\\/]|[A-Za-z]:[\\/])/.test(spec) || TARBALL.test(spec);
}

/** The package.json at `dir`, validated the way discovery will read it. @throws the refusal */
async function validated(dir: string, what: string) {
  const read = await readPluginFolder(dir);
  if (read.ok) return read;
  throw pluginRefusal(
    `${what} is not a Hermes plugin: ${read.message}.\n` +
      'A plugin needs a package.json with name, version, an entry (main or exports) and a "hermes" ' +
      'field (kind, requiresEnv, provides): see the README of @hermes/plugin-sdk.',
  );
}

/** The folder name a package gets under `HERMES_HOME/plugins`: its name without the scope. */
function folderName(packageName: string): string {
  const last = packageName.slice(packageName.lastIndexOf('/') + 1);
  if (last === 'node_modules') {
    throw pluginRefusal(`a plugin cannot be named '${packageName}': that folder belongs to npm.`);
  }
  return last;
}

/** What is in `target` now: the version of the same plugin, or a refusal unless `force`. */
async function checkTarget(target: string, name: string, force: boolean) {
  if (!existsSync(target)) return {};
  const there = await readPluginFolder(target);
  if (there.name === name) return there.ok ? { replacedVersion: there.version } : {};
  if (force) return {};
  const holds =
    there.name === undefined ? 'something that is not a plugin' : `plugin ${there.name}`;
  throw pluginRefusal(`${target} already holds ${holds}; pass --force to replace it with ${name}.`);
}

/** Moves the validated package at `staged` to `HERMES_HOME/plugins/<name>`. */
async function placeFolder(staged: string, what: string, o: InstallPluginOptions) {
  const pkg = await validated(staged, what);
  const target = join(pluginsRoot(o.hermesHome), folderName(pkg.name));
  const replaced = await checkTarget(target, pkg.name, o.force === true);
  rmSync(target, { recursive: true, force: true });
  renameSync(staged, target);
  return {
    name: pkg.name,
    version: pkg.version,
    dir: target,
    source: 'user' as const,
    ...replaced,
  };
}

/** A fresh scratch folder inside the plugins folder (so the final move is a rename). */
function scratch(hermesHome: string): string {
  const root = pluginsRoot(hermesHome);
  mkdirSync(root, { recursive: true });
  // Discovery skips dot-folders, so a half-done install is never found as a plugin.
  return mkdtempSync(join(root, '.install-'));
}

async function installFolder(dir: string, o: InstallPluginOptions): Promise<InstalledPlugin> {
  const pkg = await validated(dir, dir);
  const target = join(pluginsRoot(o.hermesHome), folderName(pkg.name));
  if (existsSync(target) && realpathSync(target) === pkg.dir) {
    throw pluginRefusal(`${pkg.name} is already installed there (${target}).`);
  }
  const work = scratch(o.hermesHome);
  try {
    const staged = join(work, 'package');
    cpSync(pkg.dir, staged, { recursive: true, filter: (path) => basename(path) !== '.git' });
    return await placeFolder(staged, dir, o);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The package's folder in an extracted tarball: npm's `package/`, or its one top folder. */
function packageRootIn(extracted: string): string {
  if (existsSync(join(extracted, 'package.json'))) return extracted;
  const entries = readdirSync(extracted, { withFileTypes: true });
  const only = entries.length === 1 ? entries[0] : undefined;
  if (only?.isDirectory()) return join(extracted, only.name);
  return existsSync(join(extracted, 'package')) ? join(extracted, 'package') : extracted;
}

async function installTarball(file: string, o: InstallPluginOptions): Promise<InstalledPlugin> {
  const runner = o.runner ?? new ChildProcessRunner();
  const work = scratch(o.hermesHome);
  try {
    const extracted = join(work, 'x');
    mkdirSync(extracted);
    // --no-same-owner: files belong to whoever installs, whatever the archive says.
    const tar = await runner.run('tar', ['-xzf', file, '-C', extracted, '--no-same-owner'], work);
    if (tar.code !== 0) {
      throw pluginRefusal(`could not extract ${file} (tar exit ${tar.code}):\n${outputTail(tar)}`);
    }
    return await placeFolder(packageRootIn(extracted), file, o);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Installs the plugin `spec` names: a folder, a `.tgz`/`.tar.gz` file, or else an npm spec.
 * @throws HermesError `plugins.refused` naming what is wrong (a bad package.json field, an
 * existing different plugin without `force`, a failed `tar` or `npm` with its output).
 */
export async function installPlugin(
  spec: string,
  o: InstallPluginOptions,
): Promise<InstalledPlugin> {
  const path = resolve(spec.startsWith('~/') ? join(homedir(), spec.slice(2)) : spec);
  if (existsSync(path)) {
    if (TARBALL.test(path)) return installTarball(path, o);
    if (statSync(path).isDirectory()) return installFolder(path, o);
    throw pluginRefusal(`${path} is neither a plugin folder nor a .tgz / .tar.gz file.`);
  }
  if (looksLocal(spec)) throw pluginRefusal(`${path} does not exist.`);
  return installFromNpm(spec, { ...o, runner: o.runner ?? new ChildProcessRunner() });
}
