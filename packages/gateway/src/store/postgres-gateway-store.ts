/**
 * The GatewayStore on PostgreSQL. (Skeleton: the implementation lands with issue 24's gateway work.)
 */
import type { PostgresDatabase, PostgresMigration } from '@hermes/state/postgres';
import { GatewayStore } from './gateway-store.js';

/** The component name of the gateway tables in `hermes_migrations`. */
export const GATEWAY_STORE_COMPONENT = 'gateway';
/** The gateway tables' migrations (routes, hygiene, delivery ledger, turns, pairing). */
export const GATEWAY_STORE_MIGRATIONS: readonly PostgresMigration[] = [];

/** Options of {@link PostgresGatewayStore.open}. */
export interface PostgresGatewayStoreOptions {
  /** This process's name among the gateways sharing the database (unique per process). */
  readonly owner: string;
}

/** Routes, hygiene, the delivery ledger and in-flight turns in PostgreSQL. */
export abstract class PostgresGatewayStore extends GatewayStore {
  /** Migrates and opens; holds a liveness lock for `owner` until `close()`. */
  static open(
    _database: PostgresDatabase,
    _options: PostgresGatewayStoreOptions,
  ): Promise<PostgresGatewayStore> {
    throw new Error('PostgresGatewayStore: not yet');
  }
}
