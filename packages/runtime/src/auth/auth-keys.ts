/** Adding and removing the keys of auth.json, and handing them to a provider's pool. */

import { HermesError } from '@hermes/protocol';
import { type CredentialInput, fingerprintKey } from '@hermes/providers';
import {
  type AuthFile,
  AuthKeyLabelSchema,
  AuthProviderNameSchema,
  readAuthFile,
  type StoredAuthKey,
  writeAuthFile,
} from './auth-file.js';

/** The code of the errors {@link addAuthKey} and {@link removeAuthKey} raise for a bad request. */
export const AUTH_KEY_REJECTED_CODE = 'auth.key_rejected';

/** What {@link addAuthKey} stored. */
export interface AddedAuthKey {
  readonly provider: string;
  readonly label: string;
  /** How many keys auth.json now holds for the provider. */
  readonly count: number;
}

/**
 * Stores `apiKey` for `provider` in auth.json (0600, atomic). The label defaults to `key<n>`, the
 * first number not taken. Refuses an empty key, a label in use, and a key already stored for the
 * provider (a twin would only be dropped by the pool).
 *
 * @throws HermesError `auth.key_rejected` (never quoting the key), or `auth.invalid_file`.
 */
export function addAuthKey(
  hermesHome: string,
  provider: string,
  apiKey: string,
  label?: string,
  now: () => Date = () => new Date(),
): AddedAuthKey {
  const name = checkProvider(provider);
  const key = apiKey.trim();
  if (key === '') throw rejected('The key is empty: nothing was stored.');
  const file = readAuthFile(hermesHome);
  const existing = file.providers[name] ?? [];
  const twin = existing.find((stored) => fingerprintKey(stored.apiKey) === fingerprintKey(key));
  if (twin !== undefined) {
    throw rejected(`That key is already stored for ${name} as "${twin.label}": nothing changed.`);
  }
  const chosen = label === undefined ? freeLabel(existing) : checkLabel(label);
  if (existing.some((stored) => stored.label === chosen)) {
    throw rejected(`${name} already has a key labelled "${chosen}": pick another --label.`);
  }
  const stored: StoredAuthKey = { label: chosen, apiKey: key, addedAt: now().toISOString() };
  writeAuthFile(hermesHome, withKeys(file, name, [...existing, stored]));
  return { provider: name, label: chosen, count: existing.length + 1 };
}

/**
 * Removes the key labelled `label` from `provider`'s keys in auth.json. Returns the removed
 * key's label, or undefined when auth.json has no such key (the caller says where else a key of
 * that name may come from).
 */
export function removeAuthKey(
  hermesHome: string,
  provider: string,
  label: string,
): string | undefined {
  const name = checkProvider(provider);
  const file = readAuthFile(hermesHome);
  const existing = file.providers[name] ?? [];
  const kept = existing.filter((stored) => stored.label !== label);
  if (kept.length === existing.length) return undefined;
  writeAuthFile(hermesHome, withKeys(file, name, kept));
  return label;
}

/**
 * `provider`'s auth.json keys as pool input: labelled as stored, source `file` (the pool's name
 * for a key read from a file), in the order they were added.
 */
export function authCredentials(file: AuthFile, provider: string): CredentialInput[] {
  return (file.providers[provider] ?? []).map((stored) => ({
    apiKey: stored.apiKey,
    label: stored.label,
    source: 'file',
  }));
}

/** The providers auth.json holds at least one key for. */
export function authProviders(file: AuthFile): string[] {
  return Object.entries(file.providers)
    .filter(([, keys]) => keys.length > 0)
    .map(([provider]) => provider);
}

function withKeys(file: AuthFile, provider: string, keys: StoredAuthKey[]): AuthFile {
  const providers = { ...file.providers };
  if (keys.length === 0) delete providers[provider];
  else providers[provider] = keys;
  return { version: 1, providers };
}

function freeLabel(existing: readonly StoredAuthKey[]): string {
  const taken = new Set(existing.map((stored) => stored.label));
  let n = existing.length + 1;
  while (taken.has(`key${n}`)) n += 1;
  return `key${n}`;
}

function checkProvider(provider: string): string {
  const parsed = AuthProviderNameSchema.safeParse(provider);
  if (parsed.success) return parsed.data;
  throw rejected(`"${provider}" is not a provider name: ${parsed.error.issues[0]?.message}.`);
}

function checkLabel(label: string): string {
  const parsed = AuthKeyLabelSchema.safeParse(label);
  if (parsed.success) return parsed.data;
  throw rejected(`"${label}" cannot be a label: ${parsed.error.issues[0]?.message}.`);
}

function rejected(message: string): HermesError {
  return new HermesError(AUTH_KEY_REJECTED_CODE, message);
}
