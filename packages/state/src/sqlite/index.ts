/**
 * The SQLite session store: `openSessionStore`, `SqliteSessionStore`, its schema, migrations and
 * error codes, and the full-text search modes (`./search`). SQLite specifics stay under this
 * folder so another dialect can sit beside it.
 */
export {
  type OpenDatabaseOptions,
  openDatabase,
  type SqliteDatabase,
  writeTransaction,
} from './connection.js';
export * from './errors.js';
export { LATEST_SCHEMA_VERSION, MIGRATIONS, type Migration } from './migrations.js';
export * as sqliteSchema from './schema.js';
export * from './search/index.js';
export {
  defaultStatePath,
  type OpenSessionStoreOptions,
  openSessionStore,
  SqliteSessionStore,
} from './sqlite-session-store.js';
export { type TrajectorySource, trajectoryJsonl } from './trajectory.js';
