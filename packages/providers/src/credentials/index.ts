/** The credential pool: several API keys per provider, cooldowns, leases, persisted health. */
export * from './cooldown.js';
export * from './credential.js';
export * from './credential-pool.js';
export * from './env-credentials.js';
export * from './fingerprint.js';
export * from './json-file-store.js';
export type { FailureOutcome, Lease } from './lease.js';
export * from './no-credentials-error.js';
export * from './pool-state.js';
export * from './strategies.js';
