/**
 * @packageDocumentation
 * `@hermes/cli`: the `hermes` command. It parses the global options, answers `--version` and
 * `--help` without loading anything heavy, and dispatches to the command table, whose modules load
 * lazily (chat, demo, setup, config, sessions, memory, skills, tools, approval, doctor, logs).
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
  profileHome,
  resolveHermesHome,
  scanArgs,
} from '@hermes/config';
import { closestCommand, findCommand } from './command-table.js';
import { renderHelp } from './help.js';
import { traceStartup } from './startup-trace.js';
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
 * - no command: runs the default command, `chat`.
 * - a command: loads its module lazily and runs it with the arguments after the command word.
 * - an unknown option or command, or an option missing its value: names the bad argument on
 *   stderr and points to `--help`; exit 2.
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
  if (values.help) {
    const path = resolveHermesHome(env);
    io.stdout.write(
      renderHelp(VERSION, { path, fromEnv: hermesHomeFromEnv(env), exists: existsSync(path) }),
    );
    return ExitCode.ok;
  }
  if (values.version) {
    io.stdout.write(`hermes ${VERSION}\n`);
    return ExitCode.ok;
  }
  const entry = findCommand(command ?? 'chat');
  const profile = typeof values.profile === 'string' ? values.profile : undefined;
  let hermesHome: string;
  try {
    hermesHome = profileHome(resolveHermesHome(env), profile);
  } catch (error) {
    return usage(io, (error as Error).message);
  }
  if (!entry) {
    // Not a built-in: maybe a command an enabled plugin registered.
    const { runPluginCommand } = await import('./commands/plugin-command.js');
    const context = { ...io, env, hermesHome, ...(profile ? { profile } : {}) };
    const code = await runPluginCommand(command ?? '', rest, context);
    if (code !== undefined) return code;
    const suggestion = closestCommand(command ?? '');
    return usage(
      io,
      `unknown command '${command}'${suggestion ? `; did you mean '${suggestion}'?` : ''}`,
    );
  }
  const module = await entry.load();
  traceStartup(`command '${entry.name}' loaded`);
  return module.run(rest, { ...io, env, hermesHome, ...(profile ? { profile } : {}) });
}

function usage(io: CliIo, message: string): number {
  io.stderr.write(`hermes: ${message}\nRun 'hermes --help' for usage.\n`);
  return ExitCode.usage;
}
