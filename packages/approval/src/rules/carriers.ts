/**
 * Shell carriers: commands that take text and run it as shell code (`sh -c`, `bash -lc`, `eval`,
 * `su -c`, `watch`, `env -S`, a shell fed a here-document). Quoting is not a bypass: the carried
 * text is parsed again and judged like any other command line.
 */
import { commandBasename, type Invocation } from '../shell/unwrap.js';
import { SHELLS, splitArgs } from './types.js';

const SHELL_VALUED = new Set(['-o', '+o', '-O', '+O', '--rcfile', '--init-file']);
const WATCH_VALUED = new Set(['-n', '--interval', '-d', '--differences']);

interface ShellOptions {
  readonly dashC: boolean;
  readonly dashS: boolean;
  /** `-n` / `-o noexec`: the shell reads commands and runs none of them (`bash -n x.sh`). */
  readonly noexec: boolean;
  /** The index of the first operand. */
  readonly operand: number;
}

/** For a shell invocation: its `-c`, `-s` and `-n` options, and the index of its first operand. */
function shellOptions(inv: Invocation): ShellOptions {
  let dashC = false;
  let dashS = false;
  let noexec = false;
  let i = 0;
  while (i < inv.args.length) {
    const arg = inv.args[i] as string;
    if (arg === '--' || arg === '-') {
      return { dashC, dashS, noexec, operand: arg === '--' ? i + 1 : i };
    }
    if (!(arg.startsWith('-') || arg.startsWith('+')) || arg.length < 2) break;
    if (SHELL_VALUED.has(arg)) {
      noexec ||= arg === '-o' && inv.args[i + 1] === 'noexec';
      i += 1;
    } else if (!arg.startsWith('--')) {
      dashC ||= arg.slice(1).includes('c');
      dashS ||= arg.slice(1).includes('s');
      noexec ||= arg.startsWith('-') && arg.slice(1).includes('n');
    } else noexec ||= arg === '--no-execute';
    i += 1;
  }
  return { dashC, dashS, noexec, operand: i };
}

/** The text a carrier runs as shell code, or `undefined` when `inv` is not a carrier. */
export function carriedCode(inv: Invocation): string | undefined {
  if (inv.carriedText !== undefined) return inv.carriedText;
  if (SHELLS.has(inv.name)) {
    const { dashC, operand } = shellOptions(inv);
    return dashC ? (inv.args[operand] ?? '') : undefined;
  }
  if (inv.name === 'eval') return inv.args.join(' ');
  if (inv.name === 'su') {
    const at = inv.args.findIndex(
      (a) => a === '-c' || a === '--command' || a === '--session-command',
    );
    if (at >= 0) return inv.args[at + 1] ?? '';
    const inline = inv.args.find((a) => a.startsWith('--command='));
    return inline?.slice('--command='.length);
  }
  if (inv.name === 'watch') {
    let i = 0;
    while (i < inv.args.length && (inv.args[i] as string).startsWith('-')) {
      i += WATCH_VALUED.has(inv.args[i] as string) ? 2 : 1;
    }
    return inv.args.slice(i).join(' ');
  }
  return undefined;
}

/** True when `inv` is a shell reading its script from stdin (no `-c`, no script file). */
export function shellReadsStdin(inv: Invocation): boolean {
  if (!SHELLS.has(inv.name)) return false;
  const { dashC, dashS, operand } = shellOptions(inv);
  const script = inv.args[operand];
  return !dashC && (dashS || script === undefined || script === '-' || isStdinPath(script));
}

/** Paths that name standard input itself (`bash /dev/stdin`, `. /dev/fd/0`). */
export function isStdinPath(path: string): boolean {
  return path === '/dev/stdin' || path === '/dev/fd/0' || path === '/proc/self/fd/0';
}

/**
 * What a shell runs besides `-c` text: `'stdin'` when it reads its script from standard input,
 * the index (among its arguments) of the script file it runs (`bash -x deploy.sh args`), or
 * `undefined` for neither — `-c`, or `-n` (it runs nothing: `bash -n x.sh`, a syntax check).
 */
export function shellRuns(inv: Invocation): 'stdin' | number | undefined {
  if (!SHELLS.has(inv.name)) return undefined;
  const { dashC, dashS, noexec, operand } = shellOptions(inv);
  if (noexec || dashC) return undefined;
  const script = inv.args[operand];
  if (dashS || script === undefined || script === '-' || isStdinPath(script)) return 'stdin';
  return operand;
}

/** True when `inv` runs the code in the files or text it names (`source`, `.`, shells). */
export function runsNamedCode(inv: Invocation): boolean {
  return inv.name === 'source' || inv.name === '.' || SHELLS.has(inv.name);
}

const FETCHERS = new Set([
  'curl',
  'wget',
  'fetch',
  'http',
  'https',
  'xh',
  'aria2c',
  'lwp-request',
  'lynx',
  'links',
]);

/** True for a command that fetches remote content. */
export function isFetcher(inv: Invocation): boolean {
  return FETCHERS.has(inv.name) || (inv.name === 'nc' && inv.args.length > 0);
}

const DECODERS = new Set([
  'base64',
  'base32',
  'basenc',
  'xxd',
  'openssl',
  'uudecode',
  'gunzip',
  'zcat',
  'bunzip2',
  'xzcat',
  'unxz',
  'gzip',
]);

/** True for a command that decodes or decompresses its input (`base64 -d`, `xxd -r`, …). */
export function isDecoder(inv: Invocation): boolean {
  if (!DECODERS.has(inv.name)) return false;
  const { short, long } = splitArgs(inv.args);
  const decodeFlag = short.has('d') || short.has('D') || long.has('--decode');
  if (inv.name === 'base64' || inv.name === 'base32' || inv.name === 'basenc') return decodeFlag;
  if (inv.name === 'xxd') return short.has('r') || long.has('--revert');
  if (inv.name === 'openssl') return decodeFlag && inv.args.some((a) => /^(?:base64|enc)$/.test(a));
  return (
    ['uudecode', 'gunzip', 'zcat', 'bunzip2', 'xzcat', 'unxz'].includes(inv.name) ||
    (inv.name === 'gzip' && short.has('d'))
  );
}

/** True when an argument names the agent (`hermes`, `hermes-gateway`, …). */
export function mentionsAgent(args: readonly string[]): boolean {
  return args.some((a) => /hermes/i.test(a));
}

/** True for a process lookup that names the agent (`pgrep -f hermes`). */
export function isAgentLookup(inv: Invocation): boolean {
  return (
    (inv.name === 'pgrep' || inv.name === 'pidof' || inv.name === 'lsof') && mentionsAgent(inv.args)
  );
}

/** The basename of a word that may be a path (`/usr/bin/curl` → `curl`). */
export { commandBasename };
