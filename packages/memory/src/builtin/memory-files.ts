/** Reading and writing one memory file safely. */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { HermesError } from '@hermes/protocol';

/** A memory file as read from disk. */
export interface MemoryFileContent {
  /** False when the file does not exist yet (a fresh home). */
  readonly exists: boolean;
  readonly text: string;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads a memory file. A missing file is empty; any other failure (permissions, a directory in
 * its place, bytes that are not UTF-8) throws, because treating an unreadable file as empty once
 * turned an `add` into a rewrite that kept a single entry.
 *
 * @throws `HermesError` `memory.file_unreadable`.
 */
export async function readMemoryFile(path: string): Promise<MemoryFileContent> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { exists: false, text: '' };
    throw unreadable(path, code ?? 'read error', error);
  }
  try {
    return { exists: true, text: strictUtf8.decode(bytes) };
  } catch (error) {
    throw unreadable(path, 'not valid UTF-8', error);
  }
}

function unreadable(path: string, why: string, cause: unknown): HermesError {
  return new HermesError(
    'memory.file_unreadable',
    `Could not read ${basename(path)} (${why}); it was left unchanged. Fix or move ${path}, then retry.`,
    { cause, details: { path, why } },
  );
}

/** Replaces a memory file in one step (temporary file + rename), so readers never see half of it. */
export async function writeMemoryFile(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temporary, text, 'utf8');
  await rename(temporary, path);
}
