/**
 * @packageDocumentation
 * PostgreSQL behind the SessionStore seam (`@hermes/state/postgres`): `PostgresDatabase` (one
 * pool and schema shared by every store of a process, with the migration runner the cron and
 * gateway stores use too) and `PostgresSessionStore`.
 */
export * from './postgres/database.js';
export * from './postgres/postgres-session-store.js';
export * from './postgres/url.js';
