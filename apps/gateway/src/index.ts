/**
 * @packageDocumentation
 * `@hermes/gateway-server`: the `hermes-gateway` command, the long-running process that serves
 * the agent to every enabled platform adapter — the OpenAI-compatible API server
 * (`platforms.api_server`), the signed webhook receiver (`platforms.webhook`) and the platforms
 * plugins register — through the `@hermes/gateway` message pipeline. `run` (the default) and
 * `start` read `HERMES_HOME/config.yaml` and `.env` and call `@hermes/runtime`'s
 * `runGatewayCommand`, which loads the plugins config.yaml enables or selects, serves until
 * SIGTERM or SIGINT and then drains running turns.
 *
 * The executable is `dist/bin.js`; everything it does goes through {@link main}.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  type CommandLineIo,
  ExitCode,
  hermesHomeFromEnv,
  isUsageError,
  type OptionTable,
  profileHome,
  resolveHermesHome,
  scanArgs,
  UsageError,
} from '@hermes/config';
import { bundledPluginDirs, type ProcessEvents, runGatewayCommand } from '@hermes/runtime';
import { renderHelp } from './help.js';
import { VERSION } from './version.js';

export { ExitCode } from '@hermes/config';
export { VERSION } from './version.js';

/** Where {@link main} writes, the environment it reads, and the signals it stops on. */
export interface GatewayIo extends CommandLineIo {
  /** SIGTERM/SIGINT and uncaught errors while serving; default `process` (tests inject one). */
  readonly signals?: ProcessEvents;
}

const OPTIONS: OptionTable = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'V' },
  config: { type: 'string' },
  profile: { type: 'string', short: 'p' },
};

const COMMANDS: readonly string[] = ['run', 'start'];

/**
 * Runs the `hermes-gateway` command line and resolves to its exit code; it never calls
 * `process.exit` and never throws for bad input.
 *
 * - `--version` / `-V`: prints `hermes-gateway <version>`; exit 0.
 * - `--help` / `-h`: prints the usage text, with the data home and config file in its footer;
 *   exit 0.
 * - `run`, `start`, or no command: serves every enabled adapter until SIGTERM/SIGINT, then
 *   drains; exit 0 (see `runGatewayCommand` for 1, 2, 130 and 143). The profile's data home is
 *   `HERMES_HOME/profiles/<name>` with `--profile <name>`.
 * - an unknown option or command, a stray argument, a bad profile name, or an option missing
 *   its value: names the bad argument on stderr and points to `--help`; exit 2.
 *
 * Options may come before or after the command. `--help` and `--version` only look at
 * `HERMES_HOME`, never create it.
 *
 * @param argv - the arguments after the program name, e.g. `process.argv.slice(2)`.
 * @param io - where to write; defaults to the process's stdout, stderr, environment and signals.
 * @returns the exit code (see {@link ExitCode}).
 */
export async function main(
  argv: readonly string[],
  io: GatewayIo = { stdout: process.stdout, stderr: process.stderr },
): Promise<number> {
  const env = io.env ?? process.env;
  let values: Record<string, string | boolean>;
  let command: string | undefined;
  try {
    const first = scanArgs(argv, OPTIONS);
    command = first.command;
    values = { ...first.values };
    if (command !== undefined) {
      const second = scanArgs(first.rest, OPTIONS);
      Object.assign(values, second.values);
      if (second.command !== undefined) {
        throw new UsageError(`unexpected argument '${second.command}' after '${command}'`);
      }
    }
  } catch (error) {
    if (isUsageError(error)) return usage(io, error.message);
    throw error;
  }
  if (command !== undefined && !COMMANDS.includes(command)) {
    return usage(io, `unknown command '${command}' (the commands are: ${COMMANDS.join(', ')})`);
  }
  const config = typeof values.config === 'string' ? resolve(values.config) : undefined;
  const profile = typeof values.profile === 'string' ? values.profile : undefined;

  if (values.help) {
    const home = resolveHermesHome(env);
    io.stdout.write(
      renderHelp(VERSION, {
        home,
        homeFromEnv: hermesHomeFromEnv(env),
        homeExists: existsSync(home),
        config: config ?? join(home, 'config.yaml'),
        configFromOption: config !== undefined,
      }),
    );
    return ExitCode.ok;
  }
  if (values.version) {
    io.stdout.write(`hermes-gateway ${VERSION}\n`);
    return ExitCode.ok;
  }
  let hermesHome: string;
  try {
    hermesHome = profileHome(resolveHermesHome(env), profile);
  } catch (error) {
    return usage(io, error instanceof Error ? error.message : String(error));
  }
  return runGatewayCommand({
    hermesHome,
    env,
    stdout: io.stdout,
    stderr: io.stderr,
    // The plugins shipped beside this package (holographic memory), found from its own folder.
    bundledDirs: bundledPluginDirs(import.meta.url),
    ...(config === undefined ? {} : { configPath: config }),
    ...(io.signals ? { signals: io.signals } : {}),
    ...(profile === undefined ? {} : { deps: { profile } }),
  });
}

function usage(io: GatewayIo, message: string): number {
  io.stderr.write(`hermes-gateway: ${message}\nRun 'hermes-gateway --help' for usage.\n`);
  return ExitCode.usage;
}
