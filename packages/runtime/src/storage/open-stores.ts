/**
 * The stores of one command, on the backend `storage:` selects: SQLite files under
 * `HERMES_HOME` (the default), or PostgreSQL. Each store returned owns its connection: closing
 * it closes the database too.
 */
import type { JobStore } from '@hermes/cron';
import type { SessionStore } from '@hermes/state';
import type { HermesConfig } from '../config/hermes-config.js';
import { connectPostgres, usesPostgres } from './postgres-connection.js';

/** Makes `store.close()` also close what it was opened on. */
function closingWith<T extends { close(): Promise<void> }>(
  store: T,
  database: { close(): Promise<void> },
): T {
  const close = store.close.bind(store);
  let closed: Promise<void> | undefined;
  store.close = () => {
    closed ??= close().finally(() => database.close());
    return closed;
  };
  return store;
}

/** The session store of `config`. */
export async function openSessionStoreFor(
  config: HermesConfig,
  applicationName = 'hermes',
): Promise<SessionStore> {
  if (!usesPostgres(config)) {
    const { openSessionStore } = await import('@hermes/state');
    return openSessionStore({ hermesHome: config.hermesHome });
  }
  const database = await connectPostgres(config, applicationName);
  try {
    const { PostgresSessionStore } = await import('@hermes/state/postgres');
    return closingWith(await PostgresSessionStore.open(database), database);
  } catch (error) {
    await database.close();
    throw error;
  }
}

/** The cron job store of `config`. */
export async function openJobStoreFor(
  config: HermesConfig,
  applicationName = 'hermes',
): Promise<JobStore> {
  if (!usesPostgres(config)) {
    const { openSqliteJobStore } = await import('@hermes/cron');
    return openSqliteJobStore(config.hermesHome);
  }
  const database = await connectPostgres(config, applicationName);
  try {
    const { PostgresJobStore } = await import('@hermes/cron/postgres');
    return closingWith(await PostgresJobStore.open(database), database);
  } catch (error) {
    await database.close();
    throw error;
  }
}
