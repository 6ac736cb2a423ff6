/**
 * The cron JobStore on PostgreSQL. (Skeleton: the implementation lands with issue 24's cron work.)
 */
import type { PostgresDatabase, PostgresMigration } from '@hermes/state/postgres';
import { JobStore } from './job-store.js';

/** The component name of the cron tables in `hermes_migrations`. */
export const JOB_STORE_COMPONENT = 'cron';
/** The cron tables' migrations. */
export const JOB_STORE_MIGRATIONS: readonly PostgresMigration[] = [];

/** Jobs, runs, leases and pending deliveries in PostgreSQL. Does not close the database. */
export abstract class PostgresJobStore extends JobStore {
  /** Migrates and opens the store on a database the caller owns. */
  static open(_database: PostgresDatabase): Promise<PostgresJobStore> {
    throw new Error('PostgresJobStore: not yet');
  }
}
