/**
 * The argument scanner of `hermes cron create|edit`: valued options that may repeat (`--skill`,
 * `--toolset`), flags (`--no-model`), and the positional words (schedule, prompt, id). The shared
 * parser keeps one value per option, so these are read here. A value is the next word as it is,
 * even one starting with `-` (`--prompt "-v please"`); `--` ends the options.
 */
import { UsageError } from '@hermes/config';

/** What a subcommand accepts. */
export interface CronOptionSpec {
  /** Options that take a value, given at most once. */
  readonly single: readonly string[];
  /** Options that take a value and may be given again (each adds one). */
  readonly repeated: readonly string[];
  /** Options without a value. */
  readonly flags: readonly string[];
}

/** The scanned command line. */
export interface CronArgs {
  readonly single: ReadonlyMap<string, string>;
  readonly lists: ReadonlyMap<string, readonly string[]>;
  readonly flags: ReadonlySet<string>;
  readonly positionals: readonly string[];
}

interface MutableArgs {
  readonly single: Map<string, string>;
  readonly lists: Map<string, string[]>;
  readonly flags: Set<string>;
  readonly positionals: string[];
}

function addValue(out: MutableArgs, spec: CronOptionSpec, option: string, value: string): void {
  if (spec.repeated.includes(option)) {
    out.lists.set(option, [...(out.lists.get(option) ?? []), value]);
    return;
  }
  if (out.single.has(option)) throw new UsageError(`option '--${option}' given twice`);
  out.single.set(option, value);
}

/**
 * Scans `args` against `spec`.
 * @throws UsageError for an unknown option, a missing value, a value given to a flag, or a
 * single option given twice.
 */
export function scanCronArgs(args: readonly string[], spec: CronOptionSpec): CronArgs {
  const out: MutableArgs = {
    single: new Map(),
    lists: new Map(),
    flags: new Set(),
    positionals: [],
  };
  for (let i = 0; i < args.length; i += 1) {
    const word = args[i] ?? '';
    if (word === '--') {
      out.positionals.push(...args.slice(i + 1));
      break;
    }
    if (!word.startsWith('--') || word.length === 2) {
      out.positionals.push(word);
      continue;
    }
    const eq = word.indexOf('=');
    const option = word.slice(2, eq === -1 ? undefined : eq);
    if (spec.flags.includes(option)) {
      if (eq !== -1) throw new UsageError(`option '--${option}' does not take a value`);
      out.flags.add(option);
      continue;
    }
    if (!spec.single.includes(option) && !spec.repeated.includes(option)) {
      throw new UsageError(`unknown option '--${option}'`);
    }
    const value = eq === -1 ? args[++i] : word.slice(eq + 1);
    if (value === undefined) throw new UsageError(`option '--${option}' needs a value`);
    addValue(out, spec, option, value);
  }
  return out;
}

/** The whole number of `--<name>`, at least `min`; undefined when absent. @throws UsageError */
export function wholeNumber(args: CronArgs, name: string, min = 1): number | undefined {
  const raw = args.single.get(name);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(value) || value < min) {
    throw new UsageError(
      `option '--${name}' needs a whole number of at least ${min}, got '${raw}'`,
    );
  }
  return value;
}

/** Throws a UsageError when both `--<a>` and `--<b>` were given. */
export function exclusive(args: CronArgs, a: string, b: string): void {
  const given = (name: string) =>
    args.single.has(name) || args.lists.has(name) || args.flags.has(name);
  if (given(a) && given(b))
    throw new UsageError(`options '--${a}' and '--${b}' exclude each other`);
}
