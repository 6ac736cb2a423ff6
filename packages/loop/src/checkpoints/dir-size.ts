/**
 * Sizes a working directory before it is snapshotted, stopping as soon as a limit is passed, so
 * a home directory or a monorepo with build output costs a bounded walk, not a full one.
 */
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Directories never snapshotted (and never counted). */
export const EXCLUDED_DIRS: ReadonlySet<string> = new Set(['.git', 'node_modules']);

/** The walk's answer: within the limits, or which limit was passed. */
export type DirSize =
  | { readonly over: false; readonly files: number; readonly bytes: number }
  | { readonly over: 'files' | 'bytes'; readonly files: number; readonly bytes: number };

/**
 * Counts files and bytes under `root` until `maxFiles` or `maxBytes` is passed; directories in
 * `skip` (absolute paths) are left out.
 */
export async function measureDir(
  root: string,
  maxFiles: number,
  maxBytes: number,
  skip: ReadonlySet<string> = new Set(),
): Promise<DirSize> {
  let files = 0;
  let bytes = 0;
  const pending = [root];
  while (pending.length > 0) {
    const dir = pending.pop() as string;
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      continue; // unreadable: git will not read it either
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!EXCLUDED_DIRS.has(entry.name) && !skip.has(path)) pending.push(path);
        continue;
      }
      files += 1;
      if (entry.isFile()) bytes += await sizeOf(path);
      if (files > maxFiles) return { over: 'files', files, bytes };
      if (bytes > maxBytes) return { over: 'bytes', files, bytes };
    }
  }
  return { over: false, files, bytes };
}

async function sizeOf(path: string): Promise<number> {
  try {
    return (await lstat(path)).size;
  } catch {
    return 0;
  }
}
