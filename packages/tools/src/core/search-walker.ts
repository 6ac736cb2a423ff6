/**
 * The `search_files` fallback when ripgrep is absent: a JS directory walk on this machine that
 * skips hidden entries and honours `.gitignore` files (via `ignore`), like ripgrep's defaults.
 */
import type { Dirent } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { CoreToolError } from './errors.js';
import { globMatcher } from './glob.js';
import type { SearchLine, SearchRequest } from './search-types.js';

/** Files larger than this are skipped by content search. */
export const MAX_SEARCH_FILE_BYTES = 10 * 1024 * 1024;

interface IgnoreLevel {
  readonly dir: string;
  readonly rules: Ignore;
}

async function loadIgnore(dir: string, relDir: string): Promise<IgnoreLevel | undefined> {
  try {
    const text = await readFile(join(dir, '.gitignore'), 'utf8');
    return { dir: relDir, rules: ignore().add(text) };
  } catch {
    return undefined;
  }
}

function ignored(levels: readonly IgnoreLevel[], rel: string, isDir: boolean): boolean {
  for (const level of levels) {
    const inner = level.dir === '' ? rel : rel.slice(level.dir.length + 1);
    if (level.rules.ignores(isDir ? `${inner}/` : inner)) return true;
  }
  return false;
}

/** Yields files under `root` (relative, `/`-separated), depth first, in name order. */
async function* walk(
  root: string,
  relDir: string,
  levels: readonly IgnoreLevel[],
  signal: AbortSignal,
): AsyncGenerator<string> {
  if (signal.aborted) return;
  const dir = relDir === '' ? root : join(root, relDir);
  const own = await loadIgnore(dir, relDir);
  const active = own ? [...levels, own] : levels;
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const rel = relDir === '' ? entry.name : `${relDir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!ignored(active, rel, true)) yield* walk(root, rel, active, signal);
    } else if (entry.isFile() && !ignored(active, rel, false)) {
      yield rel;
    }
  }
}

function compile(pattern: string): RegExp {
  try {
    return new RegExp(pattern);
  } catch (error) {
    throw new CoreToolError(`Invalid regular expression "${pattern}": ${(error as Error).message}`);
  }
}

async function readText(path: string): Promise<string | undefined> {
  const info = await stat(path);
  if (info.size > MAX_SEARCH_FILE_BYTES) return undefined;
  const bytes = await readFile(path);
  if (bytes.subarray(0, 8192).includes(0)) return undefined;
  return bytes.toString('utf8');
}

function contentLines(
  display: string,
  lines: readonly string[],
  re: RegExp,
  context: number,
): SearchLine[] {
  const hits = lines.flatMap((text, i) => (re.test(text) ? [i] : []));
  const hitSet = new Set(hits);
  const shown = new Set<number>();
  const out: SearchLine[] = [];
  for (const hit of hits) {
    for (
      let i = Math.max(0, hit - context);
      i <= Math.min(lines.length - 1, hit + context);
      i += 1
    ) {
      if (shown.has(i)) continue;
      shown.add(i);
      out.push({
        kind: hitSet.has(i) ? 'match' : 'context',
        path: display,
        line: i + 1,
        text: lines[i] ?? '',
      });
    }
  }
  return out;
}

/** Runs `request` with the JS walker; `display` turns a root-relative path into a shown path. */
export async function walkerSearch(
  request: SearchRequest,
  display: (rel: string) => string,
): Promise<SearchLine[]> {
  const info = await stat(request.root).catch(() => undefined);
  if (!info) throw new CoreToolError(`Path not found: ${display('')}`);
  const single = info.isFile();
  const files = single
    ? (async function* () {
        yield '';
      })()
    : walk(request.root, '', [], request.signal);
  const globOk = request.fileGlob ? globMatcher(request.fileGlob) : () => true;
  const re = request.target === 'content' ? compile(request.pattern) : undefined;
  const nameOk = request.target === 'files' ? globMatcher(request.pattern) : () => true;
  const out: SearchLine[] = [];
  for await (const rel of files) {
    if (out.length >= request.maxResults) break;
    const name = single ? (request.root.split(sep).pop() ?? '') : rel;
    if (!single && (!globOk(rel) || !nameOk(rel))) continue;
    const shown = single ? display('') : display(rel);
    if (!re) {
      out.push({ kind: 'file', path: shown });
      continue;
    }
    const text = await readText(single ? request.root : join(request.root, rel)).catch(
      () => undefined,
    );
    if (text === undefined || (single && !globOk(name))) continue;
    const lines = text.split(/\r?\n/);
    if (request.outputMode === 'content')
      out.push(...contentLines(shown, lines, re, request.context));
    else {
      const count = lines.filter((l) => re.test(l)).length;
      if (count > 0)
        out.push(
          request.outputMode === 'count'
            ? { kind: 'count', path: shown, count }
            : { kind: 'file', path: shown },
        );
    }
  }
  return out.slice(0, request.maxResults);
}
