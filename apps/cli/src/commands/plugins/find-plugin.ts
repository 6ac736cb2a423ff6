/**
 * Finding the plugin a user named on the command line among the discovered ones — by package
 * name, folder name or unscoped name — including plugins discovery found but cannot load, so
 * a broken plugin can still be disabled or removed.
 */
import { basename } from 'node:path';
import {
  bundledPluginDirs,
  type DiscoveredPlugin,
  type Discovery,
  type DiscoveryProblem,
  discoverPlugins,
  type PluginSource,
} from '@hermes/runtime';
import type { CommandContext } from '../../command-context.js';
import { type PluginRef, refersTo } from './plugin-lists.js';
import { pluginRefusal } from './refusal.js';

/** A plugin the user named: a loadable one, or one discovery reported as a problem. */
export interface FoundPlugin extends PluginRef {
  readonly source: PluginSource;
  /** Its folder (real path). */
  readonly dir: string;
  readonly version?: string;
  /** Present when it was found loadable. */
  readonly plugin?: DiscoveredPlugin;
  /** Present when discovery could not read it: why. */
  readonly problem?: DiscoveryProblem;
}

/**
 * Discovers plugins for `ctx`: the data home's, npm's, and the project's when
 * `HERMES_ENABLE_PROJECT_PLUGINS=1`, and the plugins bundled with the CLI.
 */
export function discoverFor(ctx: CommandContext): Promise<Discovery> {
  return discoverPlugins({
    hermesHome: ctx.hermesHome,
    cwd: process.cwd(),
    env: ctx.env as NodeJS.ProcessEnv,
    bundledDirs: bundledPluginDirs(import.meta.url),
  });
}

function fromProblem(problem: DiscoveryProblem): FoundPlugin {
  const name = problem.name ?? basename(problem.dir);
  const aliases = [basename(problem.dir)].filter((alias) => alias !== name);
  return { name, aliases, source: problem.source, dir: problem.dir, problem };
}

/** Every name a user may type, for the "unknown plugin" message. */
function knownNames(discovery: Discovery): string[] {
  const names = [
    ...discovery.plugins.map((p) => p.name),
    ...discovery.problems.map((p) => fromProblem(p).name),
  ];
  return [...new Set(names)].sort();
}

/**
 * The plugin `typed` names. A loadable plugin wins over a broken folder of the same name.
 * @throws HermesError `plugins.refused` listing the discovered names when none matches.
 */
export function findPlugin(discovery: Discovery, typed: string): FoundPlugin {
  const plugin = discovery.plugins.find((p) => refersTo(typed, p));
  if (plugin) {
    const { name, aliases, source, dir, version } = plugin;
    return { name, aliases, source, dir, version, plugin };
  }
  const broken = discovery.problems.map(fromProblem).find((p) => refersTo(typed, p));
  if (broken) return broken;
  const names = knownNames(discovery);
  throw pluginRefusal(
    names.length === 0
      ? `no plugin named '${typed}': no plugins are installed. Install one with: hermes plugins install <folder|tarball|npm-spec>`
      : `no plugin named '${typed}'. Installed plugins: ${names.join(', ')} (see: hermes plugins list).`,
  );
}
