/** One API key of a credential pool: what configures it and what the pool tracks about it. */
import { z } from 'zod';
import type { FailureReason } from '../classified-error.js';

/**
 * Where a key came from: `env:NAME` (an environment variable), `config` (config.yaml) or `file`
 * (a key file). Only the origin is recorded; keys are never persisted whatever their source.
 */
export const CredentialSourceSchema = z.union([
  z.string().regex(/^env:[A-Za-z_][A-Za-z0-9_]*$/, 'env sources look like env:NAME'),
  z.literal('config'),
  z.literal('file'),
]);
export type CredentialSource = z.infer<typeof CredentialSourceSchema>;

/**
 * Health of a key: `ok` (usable), `exhausted` (cooling down until `cooldownUntil`, then usable
 * again on its own), `dead` (permanently rejected; only {@link CredentialPool.reset} revives it).
 */
export const CredentialHealthSchema = z.enum(['ok', 'exhausted', 'dead']);
export type CredentialHealth = z.infer<typeof CredentialHealthSchema>;

/** A key handed to the pool, as config or {@link credentialsFromEnv} supplies it. */
export const CredentialInputSchema = z.object({
  /** The secret itself. Never logged, persisted or returned by `status()`. */
  apiKey: z.string().trim().min(1, 'apiKey must not be empty'),
  /** Stable identifier; defaults to the key's fingerprint. */
  id: z.string().min(1).optional(),
  /** Human name for status output, e.g. the env var name. Defaults to the id. */
  label: z.string().min(1).optional(),
  /** Lower is tried first. Defaults to the key's position in the input list. */
  priority: z.number().int().optional(),
  /** Where the key came from. Defaults to `config`. */
  source: CredentialSourceSchema.optional(),
});
export type CredentialInput = z.infer<typeof CredentialInputSchema>;

/** What the pool reports about one key: everything except the secret. */
export interface CredentialStatus {
  readonly id: string;
  readonly label: string;
  readonly priority: number;
  readonly source: CredentialSource;
  /** First 12 hex characters of the key's SHA-256; identifies the key without revealing it. */
  readonly fingerprint: string;
  readonly status: CredentialHealth;
  /** Epoch ms when an `exhausted` key becomes usable again. */
  readonly cooldownUntil?: number;
  /** The classified reason of the failure that last benched this key. */
  readonly lastErrorReason?: FailureReason;
  /** Leases handed out for this key, ever (persisted across restarts). */
  readonly useCount: number;
  /** Epoch ms of the latest lease. */
  readonly lastUsedAt?: number;
  /** Leases currently held (not persisted: leases die with the process). */
  readonly activeLeases: number;
}

/** The mutable record the pool keeps per key. Internal to the credentials module. */
export interface PooledCredential {
  readonly id: string;
  readonly label: string;
  readonly priority: number;
  readonly source: CredentialSource;
  readonly fingerprint: string;
  readonly apiKey: string;
  /** Position in the input list, the final tie-breaker so ordering is deterministic. */
  readonly order: number;
  status: CredentialHealth;
  cooldownUntil: number | undefined;
  lastErrorReason: FailureReason | undefined;
  useCount: number;
  lastUsedAt: number | undefined;
  activeLeases: number;
}
