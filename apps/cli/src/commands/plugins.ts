/**
 * `hermes plugins list|enable|disable|install|remove`: what plugins there are and what state
 * each is in, turning them on and off in config.yaml, and installing or removing them in the data
 * home. Installing never runs a plugin's code or install scripts, and never enables it.
 */
import { ExitCode } from '@hermes/config';
import { isHermesError } from '@hermes/protocol';
import type { CommandContext } from '../command-context.js';
import { parseCommandArgs, usageFailure, withUsage } from '../config/command-args.js';
import { ChildProcessRunner, type CommandRunner } from './plugins/command-runner.js';
import { discoverFor, findPlugin } from './plugins/find-plugin.js';
import { installPlugin } from './plugins/install.js';
import { listPlugins } from './plugins/list.js';
import { removePlugin } from './plugins/remove.js';
import { switchPlugin } from './plugins/switch.js';

const USAGE = `Usage: hermes plugins <subcommand>

  list [--json]             every plugin found: version, source, enabled, state, what it registered
  enable <name>             add it to plugins.enabled in config.yaml (and out of plugins.disabled)
  disable <name>            add it to plugins.disabled (and out of plugins.enabled)
  install <folder|file.tgz|npm-spec> [--force]
                            copy a plugin into HERMES_HOME/plugins (npm specs: npm install
                            --ignore-scripts into HERMES_HOME/plugins/node_modules); never enables it
  remove <name> [--purge]   delete an installed plugin; --purge deletes plugin-data/<name> too

Plugins are found in HERMES_HOME/plugins/<folder>, HERMES_HOME/plugins/node_modules, and
./.hermes/plugins when HERMES_ENABLE_PROJECT_PLUGINS=1. Only enabled plugins load.
`;

type Values = Readonly<Record<string, string | boolean>>;

/** Dependencies a test may replace: the program runner (`npm`, `tar`). */
export interface PluginsCommandDeps {
  readonly runner?: CommandRunner;
}

function needsName(sub: string, ctx: CommandContext): number {
  return usageFailure(ctx, 'plugins', `'${sub}' needs a plugin name (see: hermes plugins list)`);
}

async function install(
  spec: string | undefined,
  values: Values,
  ctx: CommandContext,
  runner: CommandRunner,
) {
  if (spec === undefined) {
    return usageFailure(ctx, 'plugins', "'install' needs a folder, a .tgz file or an npm spec");
  }
  const installed = await installPlugin(spec, {
    hermesHome: ctx.hermesHome,
    force: values.force === true,
    runner,
  });
  const what =
    installed.replacedVersion === undefined
      ? 'Installed'
      : `Replaced ${installed.replacedVersion} with`;
  ctx.stdout.write(
    `${what} ${installed.name} ${installed.version} in ${installed.dir}\n` +
      `It is not enabled. To enable it: hermes plugins enable ${installed.name}\n`,
  );
  return ExitCode.ok;
}

async function dispatch(
  sub: string,
  arg: string | undefined,
  values: Values,
  ctx: CommandContext,
  runner: CommandRunner,
) {
  if (sub === 'list') return listPlugins(ctx, { json: values.json === true });
  if (sub === 'install') return install(arg, values, ctx, runner);
  if (sub !== 'enable' && sub !== 'disable' && sub !== 'remove') {
    return usageFailure(ctx, 'plugins', `unknown subcommand '${sub}'`);
  }
  if (arg === undefined) return needsName(sub, ctx);
  const found = findPlugin(await discoverFor(ctx), arg);
  if (sub !== 'remove') return switchPlugin(found, sub === 'enable', ctx);
  const removed = await removePlugin(found, {
    hermesHome: ctx.hermesHome,
    env: ctx.env,
    runner,
    purge: values.purge === true,
  });
  ctx.stdout.write(`${removed.lines.join('\n')}\n`);
  return ExitCode.ok;
}

/** Runs `hermes plugins`; resolves to the exit code. `deps` is for tests. */
export function run(
  args: readonly string[],
  ctx: CommandContext,
  deps: PluginsCommandDeps = {},
): Promise<number> {
  return withUsage(ctx, 'plugins', async () => {
    const { values, positionals } = parseCommandArgs(args, {
      help: { type: 'boolean', short: 'h' },
      json: { type: 'boolean' },
      force: { type: 'boolean' },
      purge: { type: 'boolean' },
    });
    const [sub = 'list', arg] = positionals;
    if (values.help || sub === 'help') {
      ctx.stdout.write(USAGE);
      return ExitCode.ok;
    }
    try {
      return await dispatch(sub, arg, values, ctx, deps.runner ?? new ChildProcessRunner());
    } catch (error) {
      if (!isHermesError(error)) throw error;
      ctx.stderr.write(`hermes plugins: ${error.message}\n`);
      return ExitCode.failure;
    }
  });
}
