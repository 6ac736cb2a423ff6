/**
 * The gateway's tables in PostgreSQL, as `@hermes/state/postgres` migrations of the `gateway`
 * component. Same tables as the SQLite store's, plus an `owner` (the gateway process that wrote
 * the row) on the ledger and the turns, and the pairing documents. Never edit a released step;
 * append a new version.
 */
import type { PostgresMigration } from '@hermes/state/postgres';

/** The component name of the gateway tables in `hermes_migrations`. */
export const GATEWAY_STORE_COMPONENT = 'gateway';

/** The gateway tables' migrations (routes, hygiene, delivery ledger, turns, pairing). */
export const GATEWAY_STORE_MIGRATIONS: readonly PostgresMigration[] = [
  {
    version: 1,
    name: 'routes, hygiene cooldowns, delivery ledger and turns with owners, pairing documents',
    sql: `
      CREATE TABLE gateway_routes (
        key TEXT PRIMARY KEY, session_id TEXT NOT NULL, platform TEXT NOT NULL,
        created_at BIGINT NOT NULL, last_active_at BIGINT NOT NULL);
      CREATE TABLE gateway_hygiene (
        key TEXT PRIMARY KEY, failures INTEGER NOT NULL, cooldown_until BIGINT NOT NULL);
      -- seq keeps insertion order among replies created in the same millisecond.
      CREATE TABLE gateway_deliveries (
        seq BIGSERIAL PRIMARY KEY, id TEXT NOT NULL UNIQUE, owner TEXT NOT NULL,
        session_key TEXT NOT NULL, platform TEXT NOT NULL, target JSONB NOT NULL,
        text TEXT NOT NULL, sent_parts INTEGER NOT NULL DEFAULT 0,
        created_at BIGINT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, last_error TEXT);
      CREATE INDEX gateway_deliveries_order ON gateway_deliveries (created_at, seq);
      CREATE INDEX gateway_deliveries_owner ON gateway_deliveries (owner);
      CREATE TABLE gateway_turns (
        session_key TEXT PRIMARY KEY, owner TEXT NOT NULL, session_id TEXT NOT NULL,
        platform TEXT NOT NULL, target JSONB NOT NULL, started_at BIGINT NOT NULL);
      -- One JSON document per platform and kind, the same shape as the pairing files.
      CREATE TABLE gateway_pairing (
        platform TEXT NOT NULL, kind TEXT NOT NULL CHECK (kind IN ('pending', 'approved')),
        document JSONB NOT NULL, updated_at BIGINT NOT NULL, PRIMARY KEY (platform, kind));
    `,
  },
];

/** The advisory-lock namespace of owners' liveness locks in `schema` (first key, via hashtext). */
export function ownerLockNamespace(schema: string): string {
  return `${schema}:gateway.owner`;
}

/** The advisory-lock namespace of session lanes in `schema` (first key, via hashtext). */
export function laneLockNamespace(schema: string): string {
  return `${schema}:gateway.lane`;
}
