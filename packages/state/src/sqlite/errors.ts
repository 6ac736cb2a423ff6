/** Error codes of the SQLite session store. */
import { HermesError } from '@hermes/protocol';

/** The database file is not SQLite or is damaged. */
export const CORRUPT_DATABASE_CODE = 'state.corrupt_database';
/** The database was written by a newer build. */
export const SCHEMA_TOO_NEW_CODE = 'state.schema_too_new';
/** A write failed (disk full, read-only file, constraint); nothing of it was kept. */
export const PERSISTENCE_FAILED_CODE = 'state.persistence_failed';
/** The database file could not be opened (missing in read-only mode, no permission, …). */
export const OPEN_FAILED_CODE = 'state.open_failed';
/** Other processes held the write lock longer than the retry budget. */
export const BUSY_CODE = 'state.busy';

/** The error for a file that is not a usable SQLite database. */
export function corruptDatabaseError(path: string, cause?: unknown): HermesError {
  return new HermesError(
    CORRUPT_DATABASE_CODE,
    `The session database ${path} is not a valid SQLite database (corrupted or another file). It was left untouched; run \`hermes doctor\` to inspect or restore it.`,
    { details: { path }, cause },
  );
}

/** The error for a database whose schema is newer than this build understands. */
export function schemaTooNewError(path: string, found: number, supported: number): HermesError {
  return new HermesError(
    SCHEMA_TOO_NEW_CODE,
    `The session database ${path} has schema version ${found}, but this build supports up to ${supported}. It was left untouched; upgrade Hermes to open it.`,
    { details: { path, found, supported } },
  );
}

/** Wraps a failed write so the loop can stop the turn (`session_persistence_failed`). */
export function persistenceFailedError(path: string, what: string, cause: unknown): HermesError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new HermesError(
    PERSISTENCE_FAILED_CODE,
    `Could not ${what} in ${path}: ${reason}. Nothing of this write was saved; earlier data is intact.`,
    { details: { path, what }, cause },
  );
}

/** The error when the write lock stayed taken past the retry budget. */
export function busyError(path: string, waitedMs: number): HermesError {
  return new HermesError(
    BUSY_CODE,
    `The session database ${path} stayed locked by other processes for ${waitedMs} ms; try again.`,
    { details: { path, waitedMs }, retryable: true },
  );
}

/** The error when the database file cannot be opened at all. */
export function openFailedError(path: string, cause: unknown): HermesError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new HermesError(
    OPEN_FAILED_CODE,
    `Could not open the session database ${path}: ${reason}. Check the path and its permissions, or run \`hermes doctor\`.`,
    { details: { path }, cause },
  );
}
