/**
 * Reading and clearing the credential pools' persisted health
 * (`HERMES_HOME/auth/credential-pool.json`, written by `@hermes/providers`' pools), for
 * `hermes auth list` and `hermes auth reset`. The file holds fingerprints, never keys.
 */
import { readFileSync } from 'node:fs';
import {
  CredentialPoolFileSchema,
  defaultCredentialPoolPath,
  JsonFileCredentialStore,
  type PersistedCredential,
  type PersistedPoolState,
} from '@hermes/providers';

/**
 * `HERMES_HOME/auth/credential-pool.json` for the data home `hermesHome`. Pools built by
 * `createProvider` keep their health under the environment's `HERMES_HOME` (a `--profile` does
 * not move it), so callers pass the home the agent's pools use.
 */
export function poolStatePath(hermesHome: string): string {
  return defaultCredentialPoolPath({ HERMES_HOME: hermesHome });
}

/** The store over `statePath` (an unreadable file is moved aside, as the pools do). */
function storeAt(statePath: string): JsonFileCredentialStore {
  return new JsonFileCredentialStore({ path: statePath });
}

/** `provider`'s saved key health in `statePath`, by fingerprint (empty when none was saved). */
export function poolHealthByFingerprint(
  statePath: string,
  provider: string,
): ReadonlyMap<string, PersistedCredential> {
  const state = storeAt(statePath).load(provider);
  return new Map((state?.credentials ?? []).map((saved) => [saved.fingerprint, saved]));
}

/** What {@link resetPoolHealth} did. */
export interface PoolResetResult {
  /** The providers whose state was looked at. */
  readonly providers: readonly string[];
  /** Keys that were cooling down or dead and are usable again. */
  readonly revived: number;
}

/**
 * Makes every saved key of `provider` (or of every provider) usable again: cooldowns and dead
 * marks cleared, last errors forgotten; request counts kept. The keys themselves are untouched
 * (they are not in this file). A running process keeps its own view until its next save.
 */
export function resetPoolHealth(statePath: string, provider?: string): PoolResetResult {
  const store = storeAt(statePath);
  const providers = provider === undefined ? savedProviders(statePath) : [provider];
  let revived = 0;
  for (const name of providers) {
    const state = store.load(name);
    if (state === undefined) continue;
    const cleared = clearState(state);
    if (cleared.revived === 0) continue;
    store.save(name, cleared.state);
    revived += cleared.revived;
  }
  return { providers, revived };
}

function clearState(state: PersistedPoolState): { state: PersistedPoolState; revived: number } {
  let revived = 0;
  const credentials = state.credentials.map((saved): PersistedCredential => {
    if (saved.status === 'ok' && saved.lastErrorReason === undefined) return saved;
    revived += 1;
    const { cooldownUntil: _until, lastErrorReason: _reason, ...rest } = saved;
    return { ...rest, status: 'ok' };
  });
  return { state: { credentials }, revived };
}

/** The providers the state file has entries for; none when it is missing or unreadable. */
function savedProviders(statePath: string): string[] {
  let raw: string;
  try {
    raw = readFileSync(statePath, 'utf8');
  } catch {
    return [];
  }
  try {
    const parsed = CredentialPoolFileSchema.safeParse(JSON.parse(raw));
    return parsed.success ? Object.keys(parsed.data.providers) : [];
  } catch {
    return [];
  }
}
