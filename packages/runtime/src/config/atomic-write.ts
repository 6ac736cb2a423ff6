/** Replacing a file in one step, so a crash or a concurrent reader never sees half of it. */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { HermesError } from '@hermes/protocol';

/** The code of the error {@link writeFileAtomic} throws. */
export const CONFIG_WRITE_FAILED_CODE = 'config.write_failed';

/**
 * Writes `content` to a temporary sibling of `path`, then renames it over `path`. With `mode`
 * the file gets exactly that mode (0600 for `.env`), set before the rename so the secret is
 * never readable by others, not even for a moment.
 *
 * @throws HermesError `config.write_failed` naming the file and the reason.
 */
export function writeFileAtomic(path: string, content: string, mode?: number): void {
  const dir = dirname(path);
  const temporary = join(dir, `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(temporary, content, { encoding: 'utf8', mode: mode ?? 0o644 });
    // writeFileSync's mode is filtered by the umask; chmod makes it exact.
    if (mode !== undefined) chmodSync(temporary, mode);
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new HermesError(
      CONFIG_WRITE_FAILED_CODE,
      `Cannot write ${path}: ${(error as Error).message}. Check the folder's permissions.`,
      { cause: error, details: { path } },
    );
  }
}
