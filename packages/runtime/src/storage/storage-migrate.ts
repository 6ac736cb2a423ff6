/**
 * `hermes storage migrate`: brings the configured database's tables up to date — on PostgreSQL
 * every component's migrations (sessions, cron, gateway), on SQLite the schema `state.db` gets
 * when its stores open.
 */
import type { HermesConfig } from '../config/hermes-config.js';
import { connectPostgres, schemaOf, usesPostgres } from './postgres-connection.js';

/** What {@link migrateStorage} did. */
export interface MigrateReport {
  readonly backend: 'sqlite' | 'postgres';
  /** The database, without its password (PostgreSQL), or the state.db path. */
  readonly where: string;
  /** PostgreSQL: the schema the tables live in. */
  readonly schema?: string;
  /** The steps applied now (`state 1 sessions`, …); empty when everything was up to date. */
  readonly applied: readonly string[];
}

/** Applies every pending migration of `config`'s storage. */
export async function migrateStorage(config: HermesConfig): Promise<MigrateReport> {
  if (!usesPostgres(config)) return migrateSqlite(config);
  const database = await connectPostgres(config, 'hermes-storage');
  try {
    const [state, cron, gateway] = await Promise.all([
      import('@hermes/state/postgres'),
      import('@hermes/cron/postgres'),
      import('@hermes/gateway/postgres'),
    ]);
    const applied = [
      ...(await database.migrate(state.SESSION_STORE_COMPONENT, state.SESSION_STORE_MIGRATIONS)),
      ...(await database.migrate(cron.JOB_STORE_COMPONENT, cron.JOB_STORE_MIGRATIONS)),
      ...(await database.migrate(
        gateway.GATEWAY_STORE_COMPONENT,
        gateway.GATEWAY_STORE_MIGRATIONS,
      )),
    ];
    return {
      backend: 'postgres',
      where: database.label,
      schema: schemaOf(config, config.storage),
      applied,
    };
  } finally {
    await database.close();
  }
}

/** SQLite migrates when a store opens: open each one once. */
async function migrateSqlite(config: HermesConfig): Promise<MigrateReport> {
  const [{ openSessionStore, defaultStatePath }, { openSqliteJobStore }, { SqliteGatewayStore }] =
    await Promise.all([import('@hermes/state'), import('@hermes/cron'), import('@hermes/gateway')]);
  const sessions = openSessionStore({ hermesHome: config.hermesHome });
  await sessions.close();
  const jobs = openSqliteJobStore(config.hermesHome);
  await jobs.close();
  const gateway = SqliteGatewayStore.open({ hermesHome: config.hermesHome });
  await gateway.close();
  return { backend: 'sqlite', where: defaultStatePath(config.hermesHome), applied: [] };
}
