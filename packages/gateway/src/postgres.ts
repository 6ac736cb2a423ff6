/**
 * @packageDocumentation
 * The gateway's PostgreSQL parts (`@hermes/gateway/postgres`): the store (routes, hygiene, the
 * delivery ledger, in-flight turns), the cross-process session lane, and pairing data, so several
 * gateway processes can share one database.
 */
export * from './lane/postgres-lane.js';
export * from './pairing/postgres-pairing-data.js';
export * from './store/postgres-gateway-store.js';
