/**
 * Every key a provider has, from everywhere Hermes reads keys: the environment (and `.env`)
 * first, then auth.json. One list feeds both the provider entry and `hermes auth list`, so the
 * order a user sees is the order the pool tries.
 */
import { type CredentialInput, credentialsFromEnv, fingerprintKey } from '@hermes/providers';
import type { AuthFile } from './auth-file.js';
import { authCredentials } from './auth-keys.js';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * `provider`'s keys in priority order: those `credentialsFromEnv` finds under `variables`, then
 * the auth.json keys. A key found twice is kept once, at its first place (the pool would drop
 * the twin anyway, and the list must show what the pool holds). Priorities are the positions.
 */
export function collectProviderKeys(
  env: Env,
  provider: string,
  variables: readonly string[],
  auth: AuthFile,
): CredentialInput[] {
  const seen = new Set<string>();
  const merged: CredentialInput[] = [];
  for (const input of [
    ...credentialsFromEnv(env, provider, { variables }),
    ...authCredentials(auth, provider),
  ]) {
    const fingerprint = fingerprintKey(input.apiKey.trim());
    if (seen.has(fingerprint)) continue;
    seen.add(fingerprint);
    merged.push({ ...input, priority: merged.length });
  }
  return merged;
}
