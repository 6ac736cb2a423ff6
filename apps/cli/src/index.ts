/**
 * @packageDocumentation
 * `@hermes/cli`: the `hermes` command. This first version is the composition point only: it
 * parses the command line, answers `--version` and `--help`, and names the commands that later
 * releases add (chat, sessions, memory, skills, cron, config, setup, doctor, gateway).
 *
 * The executable is `dist/bin.js`; everything it does goes through {@link main}, so tests and
 * embedders can drive the command line in-process with captured output.
 */
import { existsSync } from 'node:fs';
import {
  type CommandLineIo,
  ExitCode,
  hermesHomeFromEnv,
  isUsageError,
  type OptionTable,
  resolveHermesHome,
  scanArgs,
} from '@hermes/config';
import { runApprovalCommand } from './approval-command.js';
import { COMMAND_NAMES, closestCommand } from './commands.js';
import { renderHelp } from './help.js';
import { VERSION } from './version.js';

export { ExitCode, resolveHermesHome } from '@hermes/config';
export { VERSION } from './version.js';

/** Where {@link main} writes, and the environment it reads. */
export type CliIo = CommandLineIo;

const GLOBAL_OPTIONS: OptionTable = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'V' },
  profile: { type: 'string', short: 'p' },
};

/**
 * Runs the `hermes` command line and resolves to its exit code; it never calls `process.exit`
 * and never throws for bad input.
 *
 * - `--version` / `-V`: prints `hermes <version>`; exit 0.
 * - `--help` / `-h`: prints the usage text, with the resolved data home in its footer; exit 0.
 * - no command: the default command, chat, is not available yet: prints a line saying so and the
 *   help; exit 0.
 * - a known command (`sessions`, `chat -q …`, …): says on stderr that it arrives in a later
 *   release; exit 1 (exit 0 with the help when its arguments ask for `--help`).
 * - an unknown option or command, or an option missing its value: names the bad argument on
 *   stderr and points to `--help`; exit 2.
 *
 * The data home (`HERMES_HOME`, default `~/.hermes`) is only looked at, never created.
 *
 * @param argv - the arguments after the program name, e.g. `process.argv.slice(2)`.
 * @param io - where to write; defaults to the process's stdout, stderr and environment.
 * @returns the exit code (see {@link ExitCode}).
 */
export async function main(
  argv: readonly string[],
  io: CliIo = { stdout: process.stdout, stderr: process.stderr },
): Promise<number> {
  const env = io.env ?? process.env;
  let scanned: ReturnType<typeof scanArgs>;
  try {
    scanned = scanArgs(argv, GLOBAL_OPTIONS);
  } catch (error) {
    if (isUsageError(error)) return usage(io, error.message);
    throw error;
  }
  const { values, command, rest } = scanned;
  const help = (): string => {
    const path = resolveHermesHome(env);
    return renderHelp(VERSION, { path, fromEnv: hermesHomeFromEnv(env), exists: existsSync(path) });
  };

  if (values.help) {
    io.stdout.write(help());
    return ExitCode.ok;
  }
  if (values.version) {
    io.stdout.write(`hermes ${VERSION}\n`);
    return ExitCode.ok;
  }
  if (command === undefined) {
    io.stdout.write(
      `Interactive chat is not available in hermes ${VERSION} yet; it arrives in a later release.\n\n${help()}`,
    );
    return ExitCode.ok;
  }
  if (command === 'approval') return runApprovalCommand(rest, { ...io, env });
  if (COMMAND_NAMES.includes(command)) {
    const notYet = `'${command}' is not available in hermes ${VERSION} yet; it arrives in a later release.`;
    if (asksForHelp(rest)) {
      io.stdout.write(`${notYet}\n\n${help()}`);
      return ExitCode.ok;
    }
    io.stderr.write(`hermes: ${notYet}\nRun 'hermes --help' to see what is coming.\n`);
    return ExitCode.failure;
  }
  const suggestion = closestCommand(command);
  return usage(
    io,
    `unknown command '${command}'${suggestion ? `; did you mean '${suggestion}'?` : ''}`,
  );
}

function usage(io: CliIo, message: string): number {
  io.stderr.write(`hermes: ${message}\nRun 'hermes --help' for usage.\n`);
  return ExitCode.usage;
}

function asksForHelp(args: readonly string[]): boolean {
  for (const arg of args) {
    if (arg === '--') return false;
    if (arg === '-h' || arg === '--help') return true;
  }
  return false;
}
