/**
 * @packageDocumentation
 * The cron job store on PostgreSQL (`@hermes/cron/postgres`): leases claimed with
 * `FOR UPDATE SKIP LOCKED`, so several processes ticking on one database run each due job once.
 */
export * from './store/postgres-job-store.js';
