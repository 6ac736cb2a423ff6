/**
 * Subcommand argument parsing on top of `@hermes/config`'s `scanArgs`: options may come before,
 * between or after the positional words, `--` ends the options, and every mistake is a
 * `UsageError` naming the bad argument.
 */
import {
  type CommandLineIo,
  ExitCode,
  isUsageError,
  type OptionTable,
  scanArgs,
  UsageError,
} from '@hermes/config';

/** Options by long name, and the positional words in order. */
export interface ParsedCommandArgs {
  readonly values: Readonly<Record<string, string | boolean>>;
  readonly positionals: readonly string[];
}

/**
 * Parses a subcommand's arguments against `options`.
 * @throws UsageError for an unknown option, a missing value or a value given to a flag.
 */
export function parseCommandArgs(args: readonly string[], options: OptionTable): ParsedCommandArgs {
  const terminator = args.indexOf('--');
  const head = terminator === -1 ? args : args.slice(0, terminator);
  const tail = terminator === -1 ? [] : args.slice(terminator + 1);
  const values: Record<string, string | boolean> = {};
  const positionals: string[] = [];
  let rest: readonly string[] = head;
  while (rest.length > 0) {
    const scanned = scanArgs(rest, options);
    Object.assign(values, scanned.values);
    if (scanned.command === undefined) break;
    positionals.push(scanned.command);
    rest = scanned.rest;
  }
  return { values, positionals: [...positionals, ...tail] };
}

/** A whole-number option at least `min`, or undefined when absent. @throws UsageError */
export function intOption(
  values: ParsedCommandArgs['values'],
  name: string,
  min = 1,
): number | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (typeof raw !== 'string' || !Number.isInteger(value) || value < min) {
    throw new UsageError(
      `option '--${name}' needs a whole number of at least ${min}, got '${String(raw)}'`,
    );
  }
  return value;
}

/** A string option, or undefined when absent. */
export function stringOption(
  values: ParsedCommandArgs['values'],
  name: string,
): string | undefined {
  const raw = values[name];
  return typeof raw === 'string' ? raw : undefined;
}

/** Writes `hermes <command>: <message>` and the pointer to its help; returns exit code 2. */
export function usageFailure(io: CommandLineIo, command: string, message: string): number {
  io.stderr.write(`hermes ${command}: ${message}\nRun 'hermes ${command} --help' for usage.\n`);
  return ExitCode.usage;
}

/**
 * Runs `body`, turning a thrown `UsageError` into the usage message and exit code 2; anything
 * else propagates.
 */
export async function withUsage(
  io: CommandLineIo,
  command: string,
  body: () => Promise<number>,
): Promise<number> {
  try {
    return await body();
  } catch (error) {
    if (isUsageError(error)) return usageFailure(io, command, error.message);
    throw error;
  }
}
