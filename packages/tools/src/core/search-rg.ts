/**
 * The `search_files` ripgrep backend: builds an `rg` command line run through the session's
 * environment (so it searches the same file system as `terminal`) and parses its output, where a
 * path ends with U+0001. `rg --null` ends paths with NUL, but an environment never returns NUL
 * (its output is a valid string; the built-in backends turn NUL into U+FFFD), so the command
 * turns each NUL into U+0001 before the output leaves the environment.
 */
import { CoreToolError } from './errors.js';
import { MAX_RESULT_LINE_CHARS, type SearchLine, type SearchRequest } from './search-types.js';

/** Quotes `text` for a POSIX shell. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * rg arguments that keep only files matching `glob`. A glob without `/` becomes a file type
 * (`--type-add`), which rg matches against the file name and applies after the ignore rules, so
 * `.gitignore`d files stay out (a `--glob` would override the ignore rules). A glob with `/` needs
 * the whole path, which only `--glob` matches.
 */
function globFilter(glob: string, typeName: string): string[] {
  if (glob.includes('/')) return ['--glob', shellQuote(glob)];
  return ['--type-add', shellQuote(`${typeName}:${glob}`), '--type', typeName];
}

/** The `rg` command for `request`; `path` is the search path as given (`.` means the cwd). */
export function ripgrepCommand(request: SearchRequest, path: string): string {
  // --no-require-git: honour .gitignore outside a git repository too, as the walker does.
  const args = ['rg', '--null', '--color', 'never', '--no-messages', '--no-require-git'];
  if (request.target === 'files') {
    args.push('--files', ...globFilter(request.pattern, 'hermesname'));
    if (request.fileGlob) args.push(...globFilter(request.fileGlob, 'hermesglob'));
  } else {
    if (request.outputMode === 'files_only') args.push('--files-with-matches');
    else if (request.outputMode === 'count') args.push('--count', '--with-filename');
    else {
      args.push('--no-heading', '--with-filename', '--line-number');
      args.push('--max-columns', String(MAX_RESULT_LINE_CHARS), '--max-columns-preview');
      if (request.context > 0) args.push('--context', String(request.context));
    }
    if (request.fileGlob) args.push(...globFilter(request.fileGlob, 'hermesglob'));
    args.push('-e', shellQuote(request.pattern));
  }
  if (path !== '.') args.push('--', shellQuote(path));
  const nulList = request.target === 'files' || request.outputMode === 'files_only';
  const head = `head ${nulList ? '-z ' : ''}-n ${request.maxResults}`;
  // </dev/null: with no path and a readable stdin (a pipe), rg would search its stdin.
  return `${args.join(' ')} </dev/null 2>&1 | ${head} | tr '\\000' '\\001'`;
}

/** Where the path of an output record ends: U+0001 as the command sends it, or a raw NUL. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these two are the path terminators.
const PATH_END = /[\u0000\u0001]/;

function parseLine(line: string, mode: SearchRequest['outputMode']): SearchLine | undefined {
  const nul = line.search(PATH_END);
  if (nul < 0) return undefined;
  const path = line.slice(0, nul);
  const rest = line.slice(nul + 1);
  if (mode === 'count') {
    const count = Number(rest);
    return Number.isInteger(count) ? { kind: 'count', path, count } : undefined;
  }
  const m = /^(\d+)([:-])/.exec(rest);
  if (!m) return undefined;
  const text = rest.slice(m[0].length);
  return { kind: m[2] === ':' ? 'match' : 'context', path, line: Number(m[1]), text };
}

/**
 * Parses `rg` output for `request`.
 *
 * @throws CoreToolError when the output holds only an error (a bad regex, a missing path).
 */
export function parseRipgrepOutput(output: string, request: SearchRequest): SearchLine[] {
  if (request.target === 'files' || request.outputMode === 'files_only') {
    const paths = output.split(PATH_END).filter((p) => p.trim() !== '');
    if (paths.length === 1 && !PATH_END.test(output) && /error|No such file/i.test(output)) {
      throw new CoreToolError(`ripgrep failed: ${output.trim().slice(0, 500)}`);
    }
    return paths.map((p) => ({ kind: 'file', path: p.replace(/^\n/, '') }));
  }
  const parsed: SearchLine[] = [];
  const noise: string[] = [];
  for (const line of output.split('\n')) {
    if (line === '' || line === '--') continue;
    const hit = parseLine(line, request.outputMode);
    if (hit) parsed.push(hit);
    else noise.push(line);
  }
  if (parsed.length === 0 && noise.length > 0) {
    throw new CoreToolError(`ripgrep failed: ${noise.join('\n').slice(0, 500)}`);
  }
  return parsed;
}
