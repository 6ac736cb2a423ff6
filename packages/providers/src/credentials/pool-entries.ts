/** Building a pool's key records from input, and moving their state to and from a store. */
import { HermesError, parseOrThrow } from '@hermes/protocol';
import { z } from 'zod';
import {
  type CredentialInput,
  CredentialInputSchema,
  type CredentialStatus,
  type PooledCredential,
} from './credential.js';
import { fingerprintKey } from './fingerprint.js';
import type { PersistedCredential, PersistedPoolState } from './pool-state.js';

const CredentialInputListSchema = z.array(CredentialInputSchema);

/**
 * Validates `inputs` and turns them into fresh records in priority order (lower first; input
 * order breaks ties). A key given twice (same fingerprint) is kept once, at its first position:
 * two records for one key would let a benched key slip back in through its twin.
 */
export function buildCredentials(
  provider: string,
  inputs: readonly CredentialInput[],
): PooledCredential[] {
  const parsed = parseOrThrow(CredentialInputListSchema, inputs, `credentials for ${provider}`);
  const seenKeys = new Set<string>();
  const seenIds = new Set<string>();
  const records: PooledCredential[] = [];
  parsed.forEach((input, order) => {
    const fingerprint = fingerprintKey(input.apiKey);
    if (seenKeys.has(fingerprint)) return;
    seenKeys.add(fingerprint);
    const id = input.id ?? fingerprint;
    if (seenIds.has(id)) {
      throw new HermesError(
        'provider.duplicate_credential_id',
        `Two credentials for ${provider} share the id "${id}": give each key its own id.`,
      );
    }
    seenIds.add(id);
    records.push(freshRecord(input, id, fingerprint, order));
  });
  return records.sort((a, b) => a.priority - b.priority || a.order - b.order);
}

function freshRecord(
  input: CredentialInput,
  id: string,
  fingerprint: string,
  order: number,
): PooledCredential {
  return {
    id,
    label: input.label ?? id,
    priority: input.priority ?? order,
    source: input.source ?? 'config',
    fingerprint,
    apiKey: input.apiKey.trim(),
    order,
    status: 'ok',
    cooldownUntil: undefined,
    lastErrorReason: undefined,
    useCount: 0,
    lastUsedAt: undefined,
    activeLeases: 0,
  };
}

/** Copies saved health and counters onto the records whose fingerprint they were saved under. */
export function applyPersisted(
  records: readonly PooledCredential[],
  state: PersistedPoolState | undefined,
): void {
  if (state === undefined) return;
  const byFingerprint = new Map(state.credentials.map((saved) => [saved.fingerprint, saved]));
  for (const record of records) {
    const saved = byFingerprint.get(record.fingerprint);
    if (saved === undefined) continue;
    record.status = saved.status;
    record.cooldownUntil = saved.status === 'exhausted' ? saved.cooldownUntil : undefined;
    record.lastErrorReason = saved.lastErrorReason;
    record.useCount = saved.useCount;
    record.lastUsedAt = saved.lastUsedAt;
  }
}

/**
 * The state to save: every current key, plus saved entries of keys this pool no longer holds
 * when they are still dead or cooling down, so a key removed and added back (or held by another
 * process with a different key set) cannot dodge its verdict. Healthy strangers are dropped.
 */
export function toPersisted(
  records: readonly PooledCredential[],
  previous: PersistedPoolState | undefined,
  now: number,
): PersistedPoolState {
  const current = new Set(records.map((record) => record.fingerprint));
  const carried = (previous?.credentials ?? []).filter(
    (saved) =>
      !current.has(saved.fingerprint) &&
      (saved.status === 'dead' ||
        (saved.status === 'exhausted' && (saved.cooldownUntil ?? 0) > now)),
  );
  return { credentials: [...records.map(persistRecord), ...carried] };
}

function persistRecord(record: PooledCredential): PersistedCredential {
  return {
    fingerprint: record.fingerprint,
    label: record.label,
    source: record.source,
    status: record.status,
    ...(record.cooldownUntil === undefined ? {} : { cooldownUntil: record.cooldownUntil }),
    ...(record.lastErrorReason === undefined ? {} : { lastErrorReason: record.lastErrorReason }),
    useCount: record.useCount,
    ...(record.lastUsedAt === undefined ? {} : { lastUsedAt: record.lastUsedAt }),
  };
}

/** The public, secret-free view of one record. */
export function describeRecord(record: PooledCredential): CredentialStatus {
  return {
    id: record.id,
    label: record.label,
    priority: record.priority,
    source: record.source,
    fingerprint: record.fingerprint,
    status: record.status,
    ...(record.cooldownUntil === undefined ? {} : { cooldownUntil: record.cooldownUntil }),
    ...(record.lastErrorReason === undefined ? {} : { lastErrorReason: record.lastErrorReason }),
    useCount: record.useCount,
    ...(record.lastUsedAt === undefined ? {} : { lastUsedAt: record.lastUsedAt }),
    activeLeases: record.activeLeases,
  };
}
