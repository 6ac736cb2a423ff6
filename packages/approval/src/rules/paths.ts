/**
 * Path spelling normalization for the rules: every way of writing the root, a system directory,
 * the home directory or a sensitive file is reduced to one canonical form before it is compared.
 */

/** Where `~`, `$HOME` and the agent's data home are, for classification. */
export interface PathContext {
  /** The user's home directory (absolute); `~`, `$HOME` and `${HOME}` are compared to it. */
  readonly home: string;
  /** The agent's data home (HERMES_HOME). */
  readonly hermesHome: string;
}

const HOME_PREFIX = /^(?:~|\$HOME|\$\{HOME\})(?=\/|$)/;
const HERMES_PREFIX = /^(?:\$HERMES_HOME|\$\{HERMES_HOME\})(?=\/|$)/;
const ALL_GLOB = /^[.*?]*\*[.*?]*$/;
const MAX_BRACE_RESULTS = 64;
const MAX_BRACE_GROUPS = 8;

/**
 * The longest path the kernel takes (`PATH_MAX`): a longer argument names no file, so `rm`
 * fails on it (`ENAMETOOLONG`) whatever it spells.
 */
const PATH_MAX = 4096;

/**
 * Expands `{a,b}` brace alternatives (`/{etc,usr}` → `/etc`, `/usr`), left to right, for at most
 * {@link MAX_BRACE_GROUPS} groups and {@link MAX_BRACE_RESULTS} results. Iterative, so no input can
 * exhaust the stack. Text without a brace list is returned as is. An expansion longer than
 * {@link PATH_MAX} names no file and is left out, so a huge word with many alternatives costs
 * one pass, not one copy of it per alternative.
 */
export function expandBraces(text: string): string[] {
  let results = [''];
  let rest = text;
  let expanded = false;
  for (let groups = 0; groups < MAX_BRACE_GROUPS; groups += 1) {
    const open = rest.indexOf('{');
    const close = open < 0 ? -1 : rest.indexOf('}', open);
    if (close < 0 || !rest.slice(open, close).includes(',')) break;
    expanded = true;
    const head = rest.slice(0, open);
    const options = rest.slice(open + 1, close).split(',');
    const next: string[] = [];
    for (const prefix of results) {
      for (const option of options) {
        const length = prefix.length + head.length + option.length;
        if (next.length < MAX_BRACE_RESULTS && length <= PATH_MAX)
          next.push(prefix + head + option);
      }
    }
    results = next;
    rest = rest.slice(close + 1);
  }
  if (!expanded) return [text];
  const out: string[] = [];
  for (const prefix of results) {
    if (prefix.length + rest.length <= PATH_MAX) out.push(prefix + rest);
  }
  return out;
}

/** A path reduced to canonical form. */
export interface CanonicalPath {
  /** `/`-joined absolute path with `.`/`..`/`//` resolved, or `~/…` for home-relative paths. */
  readonly path: string;
  /** The last component is a glob that matches everything (`*`, `.*`, `**`). */
  readonly allChildren: boolean;
  /** Whether the path is relative (not absolute, not home-relative). */
  readonly relative: boolean;
}

/**
 * Canonicalizes a path spelling: expands `~`, `$HOME`, `${HOME}` to `~`, resolves `.`, `..` and
 * repeated slashes lexically, and notes a trailing match-everything glob. `/.`, `//`, `/..`, `/*`
 * all come out as `/`; `$HOME/` and `~/*` as `~`.
 */
export function canonicalPath(spelling: string, cwd?: string): CanonicalPath {
  if (isCanonical(spelling)) return { path: spelling, allChildren: false, relative: false };
  let text = spelling.trim();
  let base = '';
  const lead = text.charCodeAt(0);
  // Only `~…` and `$…` can name the home directory; skip the pattern for everything else.
  const home = lead === 126 || lead === 36 ? HOME_PREFIX.exec(text) : null;
  if (home) {
    base = '~';
    text = text.slice(home[0].length);
  } else if (!text.startsWith('/')) {
    if (cwd === undefined) return { path: text, allChildren: false, relative: true };
    return canonicalPath(`${cwd}/${text}`);
  }
  const parts: string[] = [];
  let allChildren = false;
  for (const part of text.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  const last = parts[parts.length - 1];
  if (last !== undefined && ALL_GLOB.test(last)) {
    parts.pop();
    allChildren = true;
  }
  const joined = parts.join('/');
  const path = base === '~' ? (joined ? `~/${joined}` : '~') : `/${joined}`;
  return { path, allChildren, relative: false };
}

/**
 * Whether `text` is already an absolute path in canonical form (`/tmp/x/y`): most are, and
 * they need no splitting. Anything with `/.`, `//`, a glob, a trailing slash or surrounding
 * blanks takes the full path.
 */
function isCanonical(text: string): boolean {
  const last = text.length - 1;
  // Past PATH_MAX the character loop would cost more than the split it saves.
  if (last < 1 || last >= 4096 || text.charCodeAt(0) !== 47 || text.charCodeAt(last) === 47) {
    return false;
  }
  for (let i = 0; i <= last; i += 1) {
    const code = text.charCodeAt(i);
    if (code === 42 || code <= 32) return false;
    if (code === 47) {
      const next = text.charCodeAt(i + 1);
      if (next === 47 || next === 46) return false;
    }
  }
  return true;
}

/** Rewrites an absolute spelling of the home directory (or HERMES_HOME) to `~` / `$HERMES_HOME`. */
export function homeRelative(spelling: string, ctx: PathContext): string {
  const hermes = spelling.charCodeAt(0) === 36 ? HERMES_PREFIX.exec(spelling) : null;
  const text = hermes ? ctx.hermesHome + spelling.slice(hermes[0].length) : spelling;
  const home = withoutTrailingSlashes(ctx.home);
  if (home && text.startsWith(home) && (text.length === home.length || text[home.length] === '/')) {
    return `~${text.slice(home.length)}`;
  }
  return text;
}

/** The last home directory trimmed, and its trimmed form: one context is used for many paths. */
let lastHome = '';
let lastHomeTrimmed = '';

function withoutTrailingSlashes(home: string): string {
  if (home !== lastHome) {
    lastHome = home;
    lastHomeTrimmed = home.replace(/\/+$/, '');
  }
  return lastHomeTrimmed;
}

/** The file name at the end of a path (`a/b/.env` → `.env`). */
export function baseName(path: string): string {
  const trimmed = path.endsWith('/') ? path.replace(/\/+$/, '') : path;
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}
