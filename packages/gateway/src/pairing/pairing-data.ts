/**
 * Where the pairing state lives, behind a small seam: pending codes and approved users per
 * platform, read, and changed by an atomic read-modify-write. The default keeps the two JSON
 * files per platform under `HERMES_HOME/pairing/`; `PostgresPairingData` (from
 * `@hermes/gateway/postgres`) keeps them in the database several gateway processes share.
 */
import { readdir } from 'node:fs/promises';
import {
  type ApprovedFile,
  ApprovedFileSchema,
  type PendingFile,
  PendingFileSchema,
  pairingFile,
  readPairingFile,
  writePairingFile,
} from './pairing-files.js';

/** One platform's pairing state as read at the start of a change. */
export interface PairingState {
  readonly pending: PendingFile;
  readonly approved: ApprovedFile;
}

/** What a change decided: its result, and the documents to write (absent: unchanged). */
export interface PairingChange<T> {
  readonly result: T;
  readonly pending?: PendingFile;
  readonly approved?: ApprovedFile;
}

/** Pairing state storage. Implementations must make {@link PairingData.update} atomic. */
export abstract class PairingData {
  /** Platforms with any pairing state, sorted. */
  abstract platforms(): Promise<string[]>;
  /** `platform`'s pending codes and request stamps (empty when none, or unreadable). */
  abstract readPending(platform: string): Promise<PendingFile>;
  /** `platform`'s approved users (empty when none, or unreadable: fail closed). */
  abstract readApproved(platform: string): Promise<ApprovedFile>;
  /**
   * Reads `platform`'s state, lets `change` decide, writes what it returns; no other update of
   * the platform (in this or another process) runs in between.
   */
  abstract update<T>(
    platform: string,
    change: (state: PairingState) => PairingChange<T>,
  ): Promise<T>;
}

/**
 * The files under `HERMES_HOME/pairing/`: updates are serialized in this process; each write is
 * a rename, so a reader in another process (the CLI) never sees half a file.
 */
export class FilePairingData extends PairingData {
  readonly #dir: string;
  readonly #onCorrupt: ((path: string) => void) | undefined;
  /** Updates in this process, one after another, so two messages never lose each other's. */
  #writes: Promise<unknown> = Promise.resolve();

  constructor(dir: string, onCorrupt?: (path: string) => void) {
    super();
    this.#dir = dir;
    this.#onCorrupt = onCorrupt;
  }

  async platforms(): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(this.#dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const platforms = new Set<string>();
    for (const name of names) {
      const match = /^(.+)-(?:pending|approved)\.json$/.exec(name);
      if (match?.[1]) platforms.add(match[1]);
    }
    return [...platforms].sort();
  }

  readPending(platform: string): Promise<PendingFile> {
    const path = pairingFile(this.#dir, platform, 'pending');
    return readPairingFile(path, PendingFileSchema, this.#onCorrupt);
  }

  readApproved(platform: string): Promise<ApprovedFile> {
    const path = pairingFile(this.#dir, platform, 'approved');
    return readPairingFile(path, ApprovedFileSchema, this.#onCorrupt);
  }

  update<T>(platform: string, change: (state: PairingState) => PairingChange<T>): Promise<T> {
    const work = async () => {
      const [pending, approved] = await Promise.all([
        this.readPending(platform),
        this.readApproved(platform),
      ]);
      const decided = change({ pending, approved });
      // Approved first: a crash between the writes leaves a used code waiting, never a lost user.
      if (decided.approved) {
        await writePairingFile(
          this.#dir,
          pairingFile(this.#dir, platform, 'approved'),
          decided.approved,
        );
      }
      if (decided.pending) {
        await writePairingFile(
          this.#dir,
          pairingFile(this.#dir, platform, 'pending'),
          decided.pending,
        );
      }
      return decided.result;
    };
    const run = this.#writes.then(work, work);
    this.#writes = run.catch(() => undefined);
    return run;
  }
}
