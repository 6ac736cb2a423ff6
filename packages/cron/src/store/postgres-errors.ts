/**
 * Driver errors of the PostgreSQL job store turned into `cron.store_failed`, as `connection.ts`
 * does for SQLite, so callers handle one vocabulary whatever the backend.
 */
import { HermesError, isHermesError } from '@hermes/protocol';

/**
 * SQLSTATE classes worth retrying: serialization failures and deadlocks (40), too many
 * connections and other resource limits (53), the server going away (57P, 08).
 */
const RETRYABLE_STATE = /^(40|53|57P|08)/;

function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** True when the same call may succeed if tried again later. */
export function isRetryablePostgresError(error: unknown): boolean {
  const state = sqlState(error);
  if (state === undefined) return false;
  // Sockets closed under the pool (ECONNREFUSED, ECONNRESET) carry Node's codes, not SQLSTATEs.
  return RETRYABLE_STATE.test(state) || state.startsWith('ECONN');
}

/** The HermesError for a failed `what` (a HermesError thrown inside passes through unchanged). */
export function postgresStoreFailed(what: string, error: unknown): HermesError {
  if (isHermesError(error)) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new HermesError(
    'cron.store_failed',
    `the cron job store could not ${what} in PostgreSQL: ${reason}`,
    { cause: error, retryable: isRetryablePostgresError(error) },
  );
}

/** The error for a call on a store that was closed. */
export function postgresStoreClosed(what: string): HermesError {
  return new HermesError(
    'cron.store_failed',
    `the cron job store could not ${what}: it was closed; open a new PostgresJobStore`,
  );
}
