/**
 * The default {@link CredentialStateStore}: one JSON file, `HERMES_HOME/auth/credential-pool.json`,
 * holding every provider's pool state. It never holds a key, only fingerprints and health.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import {
  type CredentialStateStore,
  type PersistedPoolState,
  PersistedPoolStateSchema,
} from './pool-state.js';

/** The file's shape, version 1. */
export const CredentialPoolFileSchema = z.object({
  version: z.literal(1),
  providers: z.record(z.string(), PersistedPoolStateSchema),
});
export type CredentialPoolFile = z.infer<typeof CredentialPoolFileSchema>;

/** A state file that could not be read, and where it was moved. */
export interface CorruptStateReport {
  /** The file that was unreadable. */
  readonly path: string;
  /** Where it now lies, for a person to inspect: `<path>.corrupt-<epoch ms>`. */
  readonly movedTo: string;
  /** What was wrong with it. */
  readonly problem: string;
}

/** Options of {@link JsonFileCredentialStore}. */
export interface JsonFileCredentialStoreOptions {
  /** The file. Default `credential-pool.json` under `auth/` of the data home. */
  readonly path?: string;
  /** Where `HERMES_HOME` is read when `path` is absent. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The clock that names a quarantined file. Default `Date.now`. */
  readonly now?: () => number;
  /** Told when an unreadable file was moved aside. Default: a process warning. */
  readonly onCorrupt?: (report: CorruptStateReport) => void;
}

/**
 * Keeps pool state in one JSON file. Writes are atomic (a temporary file in the same folder,
 * then a rename), so a crash leaves the old file or the new one, never half of either. The file
 * is validated on every read; an unreadable one is moved aside to `*.corrupt-<ts>` and reported
 * — never silently treated as empty, never overwritten in place — and the pools start fresh.
 */
export class JsonFileCredentialStore implements CredentialStateStore {
  /** The file this store reads and writes. */
  readonly path: string;
  readonly #now: () => number;
  readonly #onCorrupt: (report: CorruptStateReport) => void;

  constructor(options: JsonFileCredentialStoreOptions = {}) {
    this.path = options.path ?? defaultCredentialPoolPath(options.env ?? process.env);
    this.#now = options.now ?? Date.now;
    this.#onCorrupt = options.onCorrupt ?? warnCorrupt;
  }

  /** The saved state of `provider`, if any. */
  load(provider: string): PersistedPoolState | undefined {
    return this.#read().providers[provider];
  }

  /** Replaces `provider`'s state, keeping the other providers' state as it is on disk. */
  save(provider: string, state: PersistedPoolState): void {
    const file = this.#read();
    const next: CredentialPoolFile = {
      version: 1,
      providers: { ...file.providers, [provider]: PersistedPoolStateSchema.parse(state) },
    };
    writeAtomically(this.path, `${JSON.stringify(next, null, 2)}\n`);
  }

  /** Reads the file fresh each time, so several pools (and processes) see each other's writes. */
  #read(): CredentialPoolFile {
    let raw: string;
    try {
      raw = readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyFile();
      throw error;
    }
    const problem = validate(raw);
    if (typeof problem !== 'string') return problem;
    const movedTo = `${this.path}.corrupt-${this.#now()}`;
    renameSync(this.path, movedTo);
    this.#onCorrupt({ path: this.path, movedTo, problem });
    return emptyFile();
  }
}

/** `HERMES_HOME/auth/credential-pool.json`; the data home defaults to `~/.hermes`. */
export function defaultCredentialPoolPath(
  env: Readonly<Record<string, string | undefined>>,
): string {
  const raw = env.HERMES_HOME?.trim();
  const home =
    raw === undefined || raw === ''
      ? join(homedir(), '.hermes')
      : resolve(raw === '~' || raw.startsWith('~/') ? join(homedir(), raw.slice(1)) : raw);
  return join(home, 'auth', 'credential-pool.json');
}

/** The parsed file, or a sentence saying why it cannot be used. */
function validate(raw: string): CredentialPoolFile | string {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    return `not valid JSON (${error instanceof Error ? error.message : String(error)})`;
  }
  const parsed = CredentialPoolFileSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const first = parsed.error.issues[0];
  const where = first === undefined || first.path.length === 0 ? '(root)' : first.path.join('.');
  return `unexpected content at ${where}: ${first?.message ?? 'invalid'}`;
}

function emptyFile(): CredentialPoolFile {
  return { version: 1, providers: {} };
}

function writeAtomically(path: string, text: string): void {
  // Owner-only: the file holds no secrets, but it does say which keys exist and how they fared.
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
  try {
    writeFileSync(temporary, text, { mode: 0o600 });
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

function warnCorrupt(report: CorruptStateReport): void {
  process.emitWarning(
    `Credential pool state at ${report.path} was unreadable (${report.problem}); moved it to ` +
      `${report.movedTo} and started fresh.`,
    { code: 'HERMES_CREDENTIAL_STORE_CORRUPT' },
  );
}
