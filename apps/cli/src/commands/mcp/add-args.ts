/**
 * The arguments of `hermes mcp add <name> …` turned into an `mcp_servers` entry. Options that
 * may repeat (`--arg`, `--env`, `--header`, `--include`, `--exclude`) are read by hand: the
 * shared parser keeps one value per option. `--arg` takes the next word as it is, even one that
 * starts with `-` (`--arg -y`).
 */
import { UsageError } from '@hermes/config';
import type { McpServerEntry } from '@hermes/runtime';

/** What `hermes mcp add` was asked to write. */
export interface McpAddRequest {
  readonly name: string;
  readonly entry: McpServerEntry;
  /** Replace an entry of the same name. */
  readonly force: boolean;
}

const VALUED = new Set([
  'command',
  'arg',
  'env',
  'cwd',
  'url',
  'header',
  'timeout',
  'connect-timeout',
  'include',
  'exclude',
]);
const FLAGS = new Set(['force', 'disabled']);
const REPEATED = new Set(['arg', 'env', 'header', 'include', 'exclude']);

interface Scanned {
  readonly single: Map<string, string>;
  readonly lists: Map<string, string[]>;
  readonly flags: Set<string>;
  readonly positionals: string[];
}

function scan(args: readonly string[]): Scanned {
  const scanned: Scanned = {
    single: new Map(),
    lists: new Map(),
    flags: new Set(),
    positionals: [],
  };
  for (let i = 0; i < args.length; i += 1) {
    const word = args[i] ?? '';
    if (!word.startsWith('--')) {
      scanned.positionals.push(word);
      continue;
    }
    const eq = word.indexOf('=');
    const option = word.slice(2, eq === -1 ? undefined : eq);
    if (FLAGS.has(option) && eq === -1) {
      scanned.flags.add(option);
      continue;
    }
    if (!VALUED.has(option)) throw new UsageError(`unknown option '--${option}'`);
    let value: string | undefined = word.slice(eq + 1);
    if (eq === -1) {
      i += 1;
      value = args[i];
    }
    if (value === undefined) throw new UsageError(`option '--${option}' needs a value`);
    if (REPEATED.has(option))
      scanned.lists.set(option, [...(scanned.lists.get(option) ?? []), value]);
    else if (scanned.single.has(option)) throw new UsageError(`option '--${option}' given twice`);
    else scanned.single.set(option, value);
  }
  return scanned;
}

/** `K=V` pairs as a record. @throws UsageError for a pair without `=` or with an empty name */
function pairs(option: string, values: readonly string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of values ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`option '--${option}' needs NAME=VALUE, got '${pair}'`);
    out[pair.slice(0, eq).trim()] = pair.slice(eq + 1);
  }
  return out;
}

function seconds(option: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) {
    throw new UsageError(`option '--${option}' needs a number of seconds above 0, got '${raw}'`);
  }
  return value;
}

function transportPart(s: Scanned): Record<string, unknown> {
  const command = s.single.get('command');
  const url = s.single.get('url');
  if ((command === undefined) === (url === undefined)) {
    throw new UsageError('give either --command (a stdio server) or --url (an HTTP server)');
  }
  if (command !== undefined) {
    if (s.lists.has('header')) throw new UsageError('--header is for --url servers; use --env');
    const args = s.lists.get('arg');
    const env = pairs('env', s.lists.get('env'));
    const cwd = s.single.get('cwd');
    return {
      command,
      ...(args ? { args } : {}),
      ...(Object.keys(env).length > 0 ? { env } : {}),
      ...(cwd ? { cwd } : {}),
    };
  }
  for (const option of ['arg', 'env'] as const) {
    if (s.lists.has(option)) throw new UsageError(`--${option} is for --command servers`);
  }
  if (s.single.has('cwd')) throw new UsageError('--cwd is for --command servers');
  const headers = pairs('header', s.lists.get('header'));
  return { url, ...(Object.keys(headers).length > 0 ? { headers } : {}) };
}

/**
 * Reads `<name> (--command <cmd> [--arg A]… [--env K=V]… [--cwd D] | --url <url> [--header
 * K=V]…) [--timeout S] [--connect-timeout S] [--include T]… [--exclude T]… [--disabled]
 * [--force]`.
 * @throws UsageError naming the bad argument
 */
export function parseMcpAddArgs(args: readonly string[]): McpAddRequest {
  const s = scan(args);
  const [name, extra] = s.positionals;
  if (name === undefined) throw new UsageError("'add' needs a server name");
  if (extra !== undefined) throw new UsageError(`unexpected argument '${extra}'`);
  const timeout = seconds('timeout', s.single.get('timeout'));
  const connect = seconds('connect-timeout', s.single.get('connect-timeout'));
  const include = s.lists.get('include');
  const exclude = s.lists.get('exclude');
  const entry: Record<string, unknown> = {
    ...transportPart(s),
    ...(s.flags.has('disabled') ? { enabled: false } : {}),
    ...(timeout === undefined ? {} : { timeout }),
    ...(connect === undefined ? {} : { connect_timeout: connect }),
    ...(include || exclude
      ? { tools: { ...(include ? { include } : {}), ...(exclude ? { exclude } : {}) } }
      : {}),
  };
  return { name, entry, force: s.flags.has('force') };
}
