/**
 * What a credential pool persists between runs, and the small interface that stores it. The
 * state holds health and counters per key fingerprint, never a key.
 */
import { z } from 'zod';
import { FailureReasonSchema } from '../classified-error.js';
import { CredentialHealthSchema, CredentialSourceSchema } from './credential.js';

const epochMs = z.number().int().nonnegative();

/** The persisted state of one key, found again after a restart by its fingerprint. */
export const PersistedCredentialSchema = z.object({
  fingerprint: z.string().regex(/^[0-9a-f]{12}$/, 'fingerprint must be 12 lower-case hex digits'),
  label: z.string().min(1),
  source: CredentialSourceSchema,
  status: CredentialHealthSchema,
  cooldownUntil: epochMs.optional(),
  lastErrorReason: FailureReasonSchema.optional(),
  useCount: z.number().int().nonnegative(),
  lastUsedAt: epochMs.optional(),
});
export type PersistedCredential = z.infer<typeof PersistedCredentialSchema>;

/** The persisted state of one provider's pool. */
export const PersistedPoolStateSchema = z.object({
  credentials: z.array(PersistedCredentialSchema),
});
export type PersistedPoolState = z.infer<typeof PersistedPoolStateSchema>;

/**
 * Where a {@link CredentialPool} keeps its state. Synchronous on purpose: the state is a few
 * hundred bytes, and a synchronous store lets `lease()` stay synchronous, so two concurrent
 * subagents can never lease between a read and a write of the same state.
 */
export interface CredentialStateStore {
  /** The saved state of `provider`'s pool, or `undefined` when none was saved (or it was unreadable). */
  load(provider: string): PersistedPoolState | undefined;
  /** Replaces the saved state of `provider`'s pool. */
  save(provider: string, state: PersistedPoolState): void;
}

/** A store that forgets everything when the process ends: for tests and hosts without a disk. */
export class MemoryCredentialStore implements CredentialStateStore {
  readonly #states = new Map<string, PersistedPoolState>();

  /** Returns a copy, so callers cannot change what is stored by accident. */
  load(provider: string): PersistedPoolState | undefined {
    const state = this.#states.get(provider);
    return state === undefined ? undefined : structuredClone(state);
  }

  /** Stores a copy of `state`. */
  save(provider: string, state: PersistedPoolState): void {
    this.#states.set(provider, structuredClone(state));
  }
}
