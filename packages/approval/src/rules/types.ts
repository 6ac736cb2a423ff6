/** Shared types of the rule modules. */
import type { Feed } from '../feeds/feed.js';
import type { Invocation } from '../shell/unwrap.js';
import type { PathContext } from './paths.js';

/** One rule hit: the stable pattern key, the reason shown to people, and what it matched. */
export interface Finding {
  readonly key: string;
  readonly reason: string;
  /** The payload command the rule judged, normalized (wrappers peeled, quotes removed). */
  readonly payload: string;
}

/**
 * Facts about upstream pipeline commands that rules ask for: a fetcher (`curl`), a decoder
 * (`base64 -d`), a process lookup naming the agent (`pgrep hermes`).
 */
export type UpstreamFact = 'fetcher' | 'decoder' | 'agentLookup';

/** One invocation in its surroundings. */
export interface Site {
  readonly inv: Invocation;
  /** The invocations just before this one in its pipeline (at most 8), in order. */
  readonly upstream: readonly Invocation[];
  /** This invocation's position in its pipeline (0 for the first). */
  readonly index: number;
  /** Whether any invocation before this one in its pipeline has `fact`. */
  upstreamHas(fact: UpstreamFact): boolean;
  /** What the stage before this one sends down the pipe, when the line knows (`echo …`). */
  readonly stdin?: Feed | undefined;
  /** The working directory when an earlier `cd` in the same script makes it known. */
  readonly cwd: string | undefined;
  readonly paths: PathContext;
}

/** A rule that may add findings for one site. */
export type SiteRule = (site: Site, out: Finding[]) => void;

/** The last payload built: a site's findings ask for the same one in a row. */
let lastInv: Invocation | undefined;
let lastText = '';

/** The payload as one normalized line: name and arguments joined by spaces. */
export function payloadText(inv: Invocation): string {
  if (inv === lastInv) return lastText;
  // Concatenation shares the argument strings instead of copying them, so the payloads of
  // nested commands cost their argument count, not the length of the text they hold.
  let text = inv.path;
  for (const arg of inv.args) text = `${text} ${arg}`;
  lastInv = inv;
  lastText = text;
  return text;
}

/** Adds a finding for `site` to `out`. */
export function hit(site: Site, out: Finding[], key: string, reason: string): void {
  out.push({ key, reason, payload: payloadText(site.inv) });
}

/** The options and positional arguments of an argument list (`--` ends options). */
export interface SplitArgs {
  /** Every short option letter given (`-rf` gives `r` and `f`). */
  readonly short: ReadonlySet<string>;
  /** Long options without their `=value` (`--force`). */
  readonly long: ReadonlySet<string>;
  readonly positionals: readonly string[];
}

/** The last argument list split: several rules split the same invocation's arguments. */
let lastArgs: readonly string[] | undefined;
let lastSplit: SplitArgs | undefined;

/** Splits `args` into short letters, long options and positionals. */
export function splitArgs(args: readonly string[]): SplitArgs {
  if (args === lastArgs && lastSplit !== undefined) return lastSplit;
  lastSplit = split(args);
  lastArgs = args;
  return lastSplit;
}

function split(args: readonly string[]): SplitArgs {
  const short = new Set<string>();
  const long = new Set<string>();
  const positionals: string[] = [];
  let options = true;
  for (const arg of args) {
    if (options && arg === '--') options = false;
    else if (options && arg.startsWith('--')) long.add(arg.split('=')[0] as string);
    else if (options && arg.startsWith('-') && arg.length > 1) {
      for (const letter of arg.slice(1)) short.add(letter);
    } else positionals.push(arg);
  }
  return { short, long, positionals };
}

/** The shells that run text given to them: the shell carriers. */
export const SHELLS: ReadonlySet<string> = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'mksh',
  'ash',
  'fish',
  'yash',
  'rbash',
]);

/** Interpreters that run code from `-c`/`-e` flags, heredocs or stdin. */
export const INTERPRETERS: ReadonlySet<string> = new Set([
  'python',
  'python2',
  'python3',
  'pypy',
  'pypy3',
  'perl',
  'ruby',
  'node',
  'nodejs',
  'php',
  'lua',
  'deno',
  'bun',
  'rscript',
  'osascript',
  'pwsh',
  'powershell',
  'tclsh',
]);

const PYTHON_VERSIONED = /^python\d(?:\.\d+)?$/;

/** `python3.12` → `python3`; other names unchanged. */
export function interpreterName(name: string): string {
  if (!name.startsWith('python')) return name;
  return PYTHON_VERSIONED.test(name) ? name.slice(0, 7) : name;
}
