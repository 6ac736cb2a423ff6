/** An append-only log file that rotates by size: `agent.log` → `agent.log.1` → … → dropped. */
import { appendFileSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

/** Default size at which a log file rotates: 5 MB. */
export const DEFAULT_MAX_LOG_BYTES = 5 * 1024 * 1024;
/** Default number of rotated files kept beside the live one. */
export const DEFAULT_LOG_BACKUPS = 3;

/** Options of {@link RotatingFile}. */
export interface RotatingFileOptions {
  /** Rotate before a write would take the file past this size. Default 5 MB. */
  readonly maxBytes?: number;
  /** Rotated files kept (`.1` newest … `.N` oldest). Default 3. */
  readonly backups?: number;
}

/**
 * Appends lines to one file, synchronously (a crash right after a log call still leaves the line
 * on disk). Before a write would pass `maxBytes` the files shift: `.N` is deleted, `.i` becomes
 * `.i+1`, the live file becomes `.1`. The size is tracked in memory after one `stat`, so several
 * processes writing one log may rotate a little early or late, never lose the live file.
 */
export class RotatingFile {
  readonly path: string;
  readonly #maxBytes: number;
  readonly #backups: number;
  #size: number | undefined;

  constructor(path: string, options: RotatingFileOptions = {}) {
    this.path = path;
    this.#maxBytes = options.maxBytes ?? DEFAULT_MAX_LOG_BYTES;
    this.#backups = options.backups ?? DEFAULT_LOG_BACKUPS;
  }

  /** Appends `text` (rotating first when needed). Throws what the file system throws. */
  write(text: string): void {
    const bytes = Buffer.byteLength(text);
    if (this.#size === undefined) this.#size = currentSize(this.path);
    if (this.#size > 0 && this.#size + bytes > this.#maxBytes) this.rotate();
    mkdirSync(dirname(this.path), { recursive: true });
    appendFileSync(this.path, text, { mode: 0o600 });
    this.#size += bytes;
  }

  /** Shifts the files now. */
  rotate(): void {
    rmSync(`${this.path}.${this.#backups}`, { force: true });
    for (let i = this.#backups - 1; i >= 1; i -= 1)
      renameIfPresent(`${this.path}.${i}`, `${this.path}.${i + 1}`);
    if (this.#backups > 0) renameIfPresent(this.path, `${this.path}.1`);
    else rmSync(this.path, { force: true });
    this.#size = 0;
  }
}

function currentSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

function renameIfPresent(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
