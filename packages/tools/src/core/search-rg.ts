/**
 * The `search_files` ripgrep backend: builds an `rg` command line run through the session's
 * environment (so it searches the same file system as `terminal`) and parses its NUL-separated
 * output.
 */
import { CoreToolError } from './errors.js';
import { MAX_RESULT_LINE_CHARS, type SearchLine, type SearchRequest } from './search-types.js';

/** Quotes `text` for a POSIX shell. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The `rg` command for `request`; `path` is the search path as given (`.` means the cwd). */
export function ripgrepCommand(request: SearchRequest, path: string): string {
  const args = ['rg', '--null', '--color', 'never', '--no-messages'];
  if (request.target === 'files') {
    args.push('--files', '--glob', shellQuote(request.pattern));
    if (request.fileGlob) args.push('--glob', shellQuote(request.fileGlob));
  } else {
    if (request.outputMode === 'files_only') args.push('--files-with-matches');
    else if (request.outputMode === 'count') args.push('--count', '--with-filename');
    else {
      args.push('--no-heading', '--with-filename', '--line-number');
      args.push('--max-columns', String(MAX_RESULT_LINE_CHARS), '--max-columns-preview');
      if (request.context > 0) args.push('--context', String(request.context));
    }
    if (request.fileGlob) args.push('--glob', shellQuote(request.fileGlob));
    args.push('-e', shellQuote(request.pattern));
  }
  if (path !== '.') args.push('--', shellQuote(path));
  const nulList = request.target === 'files' || request.outputMode === 'files_only';
  return `${args.join(' ')} 2>&1 | head ${nulList ? '-z ' : ''}-n ${request.maxResults}`;
}

function parseLine(line: string, mode: SearchRequest['outputMode']): SearchLine | undefined {
  const nul = line.indexOf('\0');
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
    const paths = output.split('\0').filter((p) => p.trim() !== '');
    if (paths.length === 1 && !output.includes('\0') && /error|No such file/i.test(output)) {
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
