/** {@link FileOperations} as shell commands through `execute()`, for any backend. */
import { EnvironmentConnectionError } from './errors.js';
import type { ExecuteResult } from './execute.js';
import type { ExecutionEnvironment } from './execution-environment.js';
import {
  BINARY_PROBE_BYTES,
  DEFAULT_SEARCH_RESULTS,
  type DirEntry,
  type FileOperations,
  type FileStat,
  type FileType,
  fileError,
  type ReadTextOptions,
  type ReadTextResult,
  readRange,
  type SearchMatch,
  type SearchOptions,
  splitLines,
} from './file-operations.js';
import { shellQuote } from './shell-script.js';

/** Room for whole files: file operations must not be cut by the terminal's output budget. */
const FILE_OUTPUT_CHARS = 200_000_000;
const FILE_TIMEOUT_MS = 60_000;

/** Checks a path, printing `missing`, `dir` or nothing; shared by the read scripts. */
const EXPECT_FILE = `[ -e "$p" ] || { echo missing; exit 0; }; [ -d "$p" ] && { echo dir; exit 0; }`;

/**
 * File operations as POSIX shell commands (GNU or BusyBox coreutils), so reads and writes happen
 * wherever the environment's commands run. Content travels base64-encoded both ways, so binary
 * bytes, `\r` and invalid UTF-8 survive any transport.
 */
export class ShellFileOperations implements FileOperations {
  constructor(readonly environment: ExecutionEnvironment) {}

  /** Runs `script`, returning its output; an interrupted or killed script is an error. */
  protected async sh(script: string, stdin?: string): Promise<string> {
    const result: ExecuteResult = await this.environment.execute(script, {
      maxOutputChars: FILE_OUTPUT_CHARS,
      timeoutMs: FILE_TIMEOUT_MS,
      ...(stdin === undefined ? {} : { stdin }),
    });
    if (result.timedOut || result.interrupted || result.exitCode === null) {
      throw new EnvironmentConnectionError('a file operation did not finish', {
        retryHint: 'the environment is slow or overloaded; try again',
      });
    }
    return result.output;
  }

  async stat(path: string): Promise<FileStat> {
    const out = await this.sh(
      `p=${shellQuote(path)}; if [ -e "$p" ] || [ -L "$p" ]; then if [ -d "$p" ]; then t=dir; elif [ -f "$p" ]; then t=file; else t=other; fi; echo "$t $(stat -L -c '%s %.3Y' -- "$p" 2>/dev/null || stat -c '%s %Y' -- "$p")"; else echo missing; fi`,
    );
    const [type, size, mtime] = out.trim().split(/\s+/);
    if (type === 'missing') return { exists: false, type: 'other', size: 0, mtimeMs: 0 };
    return {
      exists: true,
      type: asType(type),
      size: Number(size) || 0,
      mtimeMs: Math.round(Number(mtime) * 1000) || 0,
    };
  }

  async readText(path: string, options: ReadTextOptions = {}): Promise<ReadTextResult> {
    const { start, limit } = readRange(options);
    const end = start + limit - 1;
    const out = await this.sh(
      [
        `p=${shellQuote(path)}; ${EXPECT_FILE}`,
        `size=$(wc -c < "$p") || exit 0; nl=$(wc -l < "$p")`,
        `partial=0; [ "$size" -gt 0 ] && [ -n "$(tail -c 1 "$p" | tr -d '\\000')" ] && partial=1`,
        `a=$(head -c ${BINARY_PROBE_BYTES} "$p" | wc -c); b=$(head -c ${BINARY_PROBE_BYTES} "$p" | tr -d '\\000' | wc -c)`,
        `bin=0; [ "$a" != "$b" ] && bin=1`,
        `echo "ok $size $nl $partial $bin"`,
        `[ $bin = 1 ] || sed -n '${start},${end}p;${end}q' "$p" | base64 | tr -d '\\n'`,
      ].join('\n'),
    );
    const [header = '', body = ''] = splitOnce(out, '\n');
    const fields = this.#header(header, path);
    const [size = 0, newlines = 0, partial = 0, binary = 0] = fields.map(Number);
    const lines = binary ? [] : splitLines(decode(body));
    return { lines, totalLines: newlines + partial, startLine: start, binary: binary === 1, size };
  }

  async readWhole(path: string): Promise<string> {
    const out = await this.sh(
      `p=${shellQuote(path)}; ${EXPECT_FILE}; [ -r "$p" ] || { echo "unreadable"; exit 0; }; echo ok; base64 < "$p" | tr -d '\\n'`,
    );
    const [header = '', body = ''] = splitOnce(out, '\n');
    this.#header(header, path);
    return decode(body);
  }

  async writeText(path: string, content: string): Promise<{ bytes: number }> {
    const data = Buffer.from(content, 'utf8');
    const out = await this.sh(
      `p=${shellQuote(path)}; d=$(dirname -- "$p"); [ -d "$p" ] && { echo dir; exit 0; }; mkdir -p -- "$d" 2>&1 && base64 -d > "$p" 2>&1 && echo ok`,
      data.toString('base64'),
    );
    const header = out.trim().split('\n').pop() ?? '';
    if (header === 'dir') throw fileError('is_directory', path);
    if (header !== 'ok') throw fileError('failed', path, out.trim() || 'the write failed');
    return { bytes: data.length };
  }

  async list(path: string): Promise<DirEntry[]> {
    const out = await this.sh(
      `p=${shellQuote(path)}; [ -e "$p" ] || { echo missing; exit 0; }; [ -d "$p" ] || { echo notdir; exit 0; }; echo ok; find "$p/" -mindepth 1 -maxdepth 1 -printf '%y %s %f\\0' | base64 | tr -d '\\n'`,
    );
    const [header = '', body = ''] = splitOnce(out, '\n');
    this.#header(header, path);
    const entries = decode(body)
      .split('\0')
      .filter((entry) => entry.length > 0)
      .map((entry): DirEntry => {
        const [kind = '', size = '0'] = entry.split(' ', 2);
        const name = entry.slice(kind.length + size.length + 2);
        return { name, type: findType(kind), size: Number(size) || 0 };
      });
    return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async search(pattern: string, options: SearchOptions = {}): Promise<SearchMatch[]> {
    const path = options.path ?? '.';
    const max = options.maxResults ?? DEFAULT_SEARCH_RESULTS;
    const flags = `-rnIE${options.ignoreCase ? 'i' : ''}Z`;
    const include = options.glob ? ` --include=${shellQuote(options.glob)}` : '';
    const pat = shellQuote(pattern);
    const out = await this.sh(
      [
        `p=${shellQuote(path)}; [ -e "$p" ] || { echo missing; exit 0; }`,
        `e=$(grep -E -e ${pat} 2>&1 </dev/null); [ $? -eq 2 ] && { echo "badpattern $e"; exit 0; }`,
        `echo ok; grep ${flags}${include} -e ${pat} -- "$p" 2>/dev/null | head -n ${Math.max(1, Math.floor(max))} | base64 | tr -d '\\n'`,
      ].join('\n'),
    );
    const [header = '', body = ''] = splitOnce(out, '\n');
    if (header.startsWith('badpattern')) throw fileError('bad_pattern', path, header.slice(11));
    this.#header(header, path);
    return splitLines(decode(body)).map(parseMatch);
  }

  /** Turns a script's status line into the standard errors, or returns its fields. */
  #header(header: string, path: string): string[] {
    const [status = '', ...fields] = header.trim().split(' ');
    if (status === 'ok') return fields;
    if (status === 'missing') throw fileError('not_found', path);
    if (status === 'dir') throw fileError('is_directory', path);
    if (status === 'notdir') throw fileError('not_a_directory', path);
    throw fileError('failed', path, header.trim() || 'no answer from the environment');
  }
}

function parseMatch(entry: string): SearchMatch {
  const nul = entry.indexOf('\0');
  const rest = entry.slice(nul + 1);
  const colon = rest.indexOf(':');
  return {
    path: entry.slice(0, nul),
    line: Number(rest.slice(0, colon)),
    text: rest.slice(colon + 1),
  };
}

function splitOnce(text: string, separator: string): [string, string] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, ''] : [text.slice(0, at), text.slice(at + separator.length)];
}

function decode(base64: string): string {
  return Buffer.from(base64.trim(), 'base64').toString('utf8');
}

function asType(type: string | undefined): FileType {
  return type === 'file' || type === 'dir' ? type : 'other';
}

function findType(kind: string): FileType {
  return kind === 'f' ? 'file' : kind === 'd' ? 'dir' : 'other';
}
