/** Shared types of the rule modules. */
import type { Invocation } from '../shell/unwrap.js';
import type { PathContext } from './paths.js';

/** One rule hit: the stable pattern key, the reason shown to people, and what it matched. */
export interface Finding {
  readonly key: string;
  readonly reason: string;
  /** The payload command the rule judged, normalized (wrappers peeled, quotes removed). */
  readonly payload: string;
}

/** One invocation in its surroundings. */
export interface Site {
  readonly inv: Invocation;
  /** The invocations of the pipeline this one belongs to, in order. */
  readonly pipeline: readonly Invocation[];
  /** This invocation's position in {@link pipeline}. */
  readonly index: number;
  /**
   * Whether any invocation before this one in its pipeline passes `test`. Cached per pipeline and
   * test function, so long pipelines stay linear; pass a module-level function.
   */
  readonly upstreamHas: (test: (inv: Invocation) => boolean) => boolean;
  /** The working directory when an earlier `cd` in the same script makes it known. */
  readonly cwd: string | undefined;
  readonly paths: PathContext;
}

/** A rule that may add findings for one site. */
export type SiteRule = (site: Site, out: Finding[]) => void;

/** The payload as one normalized line: name and arguments joined by spaces. */
export function payloadText(inv: Invocation): string {
  return [inv.path, ...inv.args].join(' ');
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

/** Splits `args` into short letters, long options and positionals. */
export function splitArgs(args: readonly string[]): SplitArgs {
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

/** `python3.12` → `python3`; other names unchanged. */
export function interpreterName(name: string): string {
  return /^python\d(?:\.\d+)?$/.test(name) ? name.slice(0, 7) : name;
}
