/**
 * @packageDocumentation
 * `@hermes/gateway-server`: the `hermes-gateway` command, the long-running process that will
 * connect messaging platforms, the OpenAI-compatible API server and the cron clock to the agent.
 * This first version is the composition point only: it parses the command line, answers
 * `--version` and `--help`, and says that the runtime arrives in a later release. It never
 * starts a server and never blocks.
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
  resolveHermesHome,
  scanArgs,
  UsageError,
} from '@hermes/config';
import { renderHelp } from './help.js';
import { VERSION } from './version.js';

export { ExitCode } from '@hermes/config';
export { VERSION } from './version.js';

/** Where {@link main} writes, and the environment it reads. */
export type GatewayIo = CommandLineIo;

const OPTIONS: OptionTable = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'V' },
  config: { type: 'string' },
  profile: { type: 'string', short: 'p' },
};

const COMMANDS: readonly string[] = ['run', 'start'];

/**
 * Runs the `hermes-gateway` command line and resolves to its exit code; it never calls
 * `process.exit`, never throws for bad input, and returns at once (nothing is started).
 *
 * - `--version` / `-V`: prints `hermes-gateway <version>`; exit 0.
 * - `--help` / `-h`: prints the usage text, with the data home and config file in its footer;
 *   exit 0.
 * - no command: says the gateway runtime arrives in a later release and prints the help; exit 0.
 * - `run` / `start`: says on stderr that the runtime is not in this version; exit 1.
 * - an unknown option or command, a stray argument, or an option missing its value: names the
 *   bad argument on stderr and points to `--help`; exit 2.
 *
 * Options may come before or after the command. `HERMES_HOME` is only looked at, never created.
 *
 * @param argv - the arguments after the program name, e.g. `process.argv.slice(2)`.
 * @param io - where to write; defaults to the process's stdout, stderr and environment.
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

  const help = (): string => {
    const home = resolveHermesHome(env);
    const config = typeof values.config === 'string' ? values.config : undefined;
    return renderHelp(VERSION, {
      home,
      homeFromEnv: hermesHomeFromEnv(env),
      homeExists: existsSync(home),
      config: config === undefined ? join(home, 'config.yaml') : resolve(config),
      configFromOption: config !== undefined,
    });
  };

  if (values.help) {
    io.stdout.write(help());
    return ExitCode.ok;
  }
  if (values.version) {
    io.stdout.write(`hermes-gateway ${VERSION}\n`);
    return ExitCode.ok;
  }
  if (command === undefined) {
    io.stdout.write(
      `The gateway runtime arrives in a later release; hermes-gateway ${VERSION} cannot run it yet.\n\n${help()}`,
    );
    return ExitCode.ok;
  }
  io.stderr.write(
    `hermes-gateway: cannot ${command}: the gateway runtime arrives in a later release ` +
      `and is not in hermes-gateway ${VERSION}.\nRun 'hermes-gateway --help' to see what is coming.\n`,
  );
  return ExitCode.failure;
}

function usage(io: GatewayIo, message: string): number {
  io.stderr.write(`hermes-gateway: ${message}\nRun 'hermes-gateway --help' for usage.\n`);
  return ExitCode.usage;
}
