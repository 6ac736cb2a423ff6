/** {@link FileOperations} with `node:fs`, for environments that share this machine's files. */
import { mkdir, open, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { ExecutionEnvironment } from './execution-environment.js';
import {
  BINARY_PROBE_BYTES,
  type DirEntry,
  type FileOperations,
  type FileStat,
  type FileType,
  fileError,
  type ReadTextOptions,
  type ReadTextResult,
  readRange,
  splitLines,
} from './file-operations.js';
import { LocalEnvironment } from './local-environment.js';
import { ShellFileOperations } from './shell-file-operations.js';

/**
 * The same operations as {@link ShellFileOperations}, done with `fs` for speed. Search still
 * goes through the shell (grep), so patterns mean the same on every backend. Relative paths
 * resolve against the environment's current working directory.
 */
export class LocalFileOperations extends ShellFileOperations implements FileOperations {
  readonly #cwd: () => string;

  constructor(environment: ExecutionEnvironment, cwd: () => string) {
    super(environment);
    this.#cwd = cwd;
  }

  #abs(path: string): string {
    return isAbsolute(path) ? path : resolve(this.#cwd(), path);
  }

  override async stat(path: string): Promise<FileStat> {
    try {
      const info = await stat(this.#abs(path));
      return {
        exists: true,
        type: typeOf(info),
        size: info.size,
        mtimeMs: Math.round(info.mtimeMs),
      };
    } catch (error) {
      if (isMissing(error)) return { exists: false, type: 'other', size: 0, mtimeMs: 0 };
      throw fileError('failed', path, (error as Error).message);
    }
  }

  override async readText(path: string, options: ReadTextOptions = {}): Promise<ReadTextResult> {
    const { start, limit } = readRange(options);
    const bytes = await this.#readFile(path);
    const binary = bytes.subarray(0, BINARY_PROBE_BYTES).includes(0);
    const text = bytes.toString('utf8');
    let newlines = 0;
    for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) newlines++;
    const partial = text.length > 0 && !text.endsWith('\n') ? 1 : 0;
    const lines = binary ? [] : splitLines(text).slice(start - 1, start - 1 + limit);
    return { lines, totalLines: newlines + partial, startLine: start, binary, size: bytes.length };
  }

  override async readWhole(path: string): Promise<string> {
    return (await this.#readFile(path)).toString('utf8');
  }

  override async writeText(path: string, content: string): Promise<{ bytes: number }> {
    const abs = this.#abs(path);
    const data = Buffer.from(content, 'utf8');
    try {
      await mkdir(dirname(abs), { recursive: true });
      await writeFile(abs, data);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EISDIR') throw fileError('is_directory', path);
      throw fileError('failed', path, (error as Error).message);
    }
    return { bytes: data.length };
  }

  override async list(path: string): Promise<DirEntry[]> {
    const abs = this.#abs(path);
    const info = await this.stat(path);
    if (!info.exists) throw fileError('not_found', path);
    if (info.type !== 'dir') throw fileError('not_a_directory', path);
    const names = await readdir(abs);
    const entries = await Promise.all(
      names.map(async (name): Promise<DirEntry> => {
        const entry = await stat(join(abs, name)).catch(() => undefined);
        return { name, type: entry ? typeOf(entry) : 'other', size: entry?.size ?? 0 };
      }),
    );
    return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async #readFile(path: string): Promise<Buffer> {
    const abs = this.#abs(path);
    let handle: Awaited<ReturnType<typeof open>> | undefined;
    try {
      handle = await open(abs, 'r');
      if ((await handle.stat()).isDirectory()) throw fileError('is_directory', path);
      return await readFile(handle);
    } catch (error) {
      if (isMissing(error)) throw fileError('not_found', path);
      if ((error as NodeJS.ErrnoException).code === 'EISDIR') throw fileError('is_directory', path);
      if (error instanceof Error && error.name === 'FileOperationError') throw error;
      throw fileError('failed', path, (error as Error).message);
    } finally {
      await handle?.close();
    }
  }
}

function typeOf(info: { isFile(): boolean; isDirectory(): boolean }): FileType {
  return info.isFile() ? 'file' : info.isDirectory() ? 'dir' : 'other';
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * The file operations for `environment`: `fs` directly for a {@link LocalEnvironment} (same
 * machine, same files), shell commands through `execute()` for every other backend.
 */
export function fileOperationsFor(environment: ExecutionEnvironment): FileOperations {
  if (environment instanceof LocalEnvironment && environment.name === 'local') {
    return new LocalFileOperations(environment, () => environment.cwd);
  }
  return new ShellFileOperations(environment);
}
