/**
 * Plugins from npm: installed and removed with `npm --prefix HERMES_HOME/plugins`, install scripts
 * never run (a plugin's code runs only when the host loads it, and only when it is enabled).
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CommandRunner, outputTail } from './command-runner.js';
import type { InstalledPlugin } from './install.js';
import { pluginsRoot } from './plugin-home.js';
import { readPluginFolder } from './read-plugin-folder.js';
import { pluginRefusal } from './refusal.js';

/** The flags every npm call gets: no lifecycle scripts, no audit or funding chatter. */
const NPM_FLAGS = ['--ignore-scripts', '--no-audit', '--no-fund'] as const;

/** The npm command line of an install into `hermesHome` (what runs, for messages and tests). */
export function npmInstallArgs(hermesHome: string, spec: string): string[] {
  return ['install', ...NPM_FLAGS, '--prefix', pluginsRoot(hermesHome), spec];
}

/** The npm command line that removes package `name` from `hermesHome`. */
export function npmUninstallArgs(hermesHome: string, name: string): string[] {
  return ['uninstall', ...NPM_FLAGS, '--prefix', pluginsRoot(hermesHome), name];
}

/** The dependencies recorded in `HERMES_HOME/plugins/package.json`, name → spec. */
function recordedDependencies(hermesHome: string): Record<string, string> {
  const file = join(pluginsRoot(hermesHome), 'package.json');
  if (!existsSync(file)) return {};
  try {
    const json = JSON.parse(readFileSync(file, 'utf8')) as { dependencies?: unknown };
    const deps = json.dependencies;
    return deps !== null && typeof deps === 'object' ? (deps as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/** The package name a registry spec names (`x`, `x@1`, `@s/x@^2`); undefined for URLs, paths, git. */
export function packageNameOfSpec(spec: string): string | undefined {
  const match = /^((?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*)(?:@[^/:]*)?$/.exec(spec);
  return match?.[1];
}

/** Which package an install added: from the spec, else the dependency npm recorded anew. */
function installedName(spec: string, before: Record<string, string>, hermesHome: string) {
  const named = packageNameOfSpec(spec);
  if (named !== undefined) return named;
  const after = recordedDependencies(hermesHome);
  return Object.keys(after).find((name) => before[name] !== after[name]);
}

/**
 * `npm install` of `spec` into `HERMES_HOME/plugins`, then the installed package validated as a
 * plugin; one that is not is uninstalled again.
 * @throws HermesError `plugins.refused` with npm's output when it fails.
 */
export async function installFromNpm(
  spec: string,
  o: { readonly hermesHome: string; readonly runner: CommandRunner },
): Promise<InstalledPlugin> {
  const root = pluginsRoot(o.hermesHome);
  const before = recordedDependencies(o.hermesHome);
  mkdirSync(root, { recursive: true });
  const named = packageNameOfSpec(spec);
  const old =
    named === undefined ? undefined : await readPluginFolder(join(root, 'node_modules', named));
  const npm = await o.runner.run('npm', npmInstallArgs(o.hermesHome, spec), root);
  if (npm.code !== 0) {
    throw pluginRefusal(
      `npm could not install '${spec}' (exit ${npm.code ?? 'by signal'}). Check the name and your ` +
        `network, or install from a folder or .tgz instead. npm said:\n${outputTail(npm)}`,
    );
  }
  const name = installedName(spec, before, o.hermesHome);
  if (name === undefined) {
    throw pluginRefusal(
      `npm installed '${spec}', but which package it added is unclear; see ${root}.`,
    );
  }
  const dir = join(root, 'node_modules', name);
  const read = await readPluginFolder(dir);
  if (!read.ok) {
    await o.runner.run('npm', npmUninstallArgs(o.hermesHome, name), root);
    throw pluginRefusal(
      `${name} is not a Hermes plugin (${read.message}); it was uninstalled again.`,
    );
  }
  return {
    name,
    version: read.version,
    dir,
    source: 'npm',
    ...(old?.ok ? { replacedVersion: old.version } : {}),
  };
}

/** `npm uninstall` of `name` from `HERMES_HOME/plugins`. @throws the refusal with npm's output */
export async function uninstallFromNpm(
  name: string,
  o: { readonly hermesHome: string; readonly runner: CommandRunner },
): Promise<void> {
  const npm = await o.runner.run(
    'npm',
    npmUninstallArgs(o.hermesHome, name),
    pluginsRoot(o.hermesHome),
  );
  if (npm.code !== 0) {
    throw pluginRefusal(
      `npm could not uninstall ${name} (exit ${npm.code ?? 'by signal'}):\n${outputTail(npm)}`,
    );
  }
}
