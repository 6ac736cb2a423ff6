/**
 * A thin layer over `node:util`'s `parseArgs` that turns every kind of bad input into one
 * {@link UsageError} naming the offending argument, instead of Node's generic messages.
 */
import { parseArgs } from 'node:util';
import { HermesError, hasErrorCode } from '@hermes/protocol';

/** One option the command line accepts. */
export interface OptionSpec {
  readonly type: 'boolean' | 'string';
  readonly short?: string;
}

/** A table of accepted options, keyed by long name. */
export type OptionTable = Readonly<Record<string, OptionSpec>>;

/** The code of every {@link UsageError}. */
export const USAGE_ERROR_CODE = 'cli.usage';

/**
 * A bad command line. The message names the offending argument; the caller adds the pointer to
 * `--help`. Recognize it with {@link isUsageError}.
 */
export class UsageError extends HermesError {
  constructor(message: string) {
    super(USAGE_ERROR_CODE, message);
  }
}

/** True when `error` is a {@link UsageError}, from any copy of this package. */
export function isUsageError(error: unknown): error is UsageError {
  return hasErrorCode(error, USAGE_ERROR_CODE);
}

/** The result of {@link scanArgs}. */
export interface ScannedArgs {
  /** Options seen before the command, by long name (later occurrences win). */
  readonly values: Readonly<Record<string, string | boolean>>;
  /** The first positional argument, if any. */
  readonly command: string | undefined;
  /** Every argument after the command, untouched: the command parses them itself. */
  readonly rest: readonly string[];
}

/**
 * Reads global options up to the first positional argument (the command) and returns the
 * remaining arguments unparsed.
 *
 * @throws {@link UsageError} for an unknown option, a missing or empty value, or a value given to
 * a flag.
 */
export function scanArgs(args: readonly string[], options: OptionTable): ScannedArgs {
  const { tokens } = parseArgs({
    args: [...args],
    options: toParseArgsOptions(options),
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const values: Record<string, string | boolean> = {};
  for (const token of tokens) {
    if (token.kind === 'positional') {
      return { values, command: token.value, rest: args.slice(token.index + 1) };
    }
    if (token.kind === 'option-terminator') continue;
    const spec = Object.hasOwn(options, token.name) ? options[token.name] : undefined;
    if (!spec) throw new UsageError(`unknown option '${token.rawName}'`);
    values[token.name] = readValue(token.name, token.rawName, spec, token.value, token.inlineValue);
  }
  return { values, command: undefined, rest: [] };
}

function readValue(
  name: string,
  rawName: string,
  spec: OptionSpec,
  raw: string | undefined,
  inline: boolean | undefined,
): string | boolean {
  if (spec.type === 'boolean') {
    if (raw !== undefined) throw new UsageError(`option '${rawName}' does not take a value`);
    return true;
  }
  if (raw === undefined) throw new UsageError(`option '${rawName}' needs a value`);
  if (!inline && raw.startsWith('-')) {
    throw new UsageError(
      `option '${rawName}' needs a value, but got the option '${raw}' ` +
        `(write '--${name}=${raw}' if that really is the value)`,
    );
  }
  // `-p=work` reaches here as '=work' (parseArgs reads `-pVALUE`); the '=' is never meant.
  const value = inline && !rawName.startsWith('--') && raw.startsWith('=') ? raw.slice(1) : raw;
  if (value.trim() === '') throw new UsageError(`option '${rawName}' needs a non-empty value`);
  return value;
}

function toParseArgsOptions(
  options: OptionTable,
): Record<string, { type: 'boolean' | 'string'; short?: string }> {
  const out: Record<string, { type: 'boolean' | 'string'; short?: string }> = {};
  for (const [name, spec] of Object.entries(options)) {
    out[name] =
      spec.short === undefined ? { type: spec.type } : { type: spec.type, short: spec.short };
  }
  return out;
}
