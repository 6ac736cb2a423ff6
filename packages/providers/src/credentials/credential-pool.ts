/**
 * Several API keys for one provider, handed out one call at a time. Failed keys sit out for a
 * cooldown sized by the classified failure; revoked keys stay out until reset; the health of
 * every key survives a restart through a {@link CredentialStateStore}.
 */
import type { ClassifiedError } from '../classified-error.js';
import { type CooldownPolicy, DEFAULT_COOLDOWN_POLICY, judgeFailure } from './cooldown.js';
import type { CredentialInput, CredentialStatus, PooledCredential } from './credential.js';
import { JsonFileCredentialStore } from './json-file-store.js';
import { type FailureOutcome, type Lease, type LeaseOwner, PoolLease } from './lease.js';
import { NoCredentialsError } from './no-credentials-error.js';
import { applyPersisted, buildCredentials, describeRecord, toPersisted } from './pool-entries.js';
import type { CredentialStateStore, PersistedPoolState } from './pool-state.js';
import { type PoolStrategy, PoolStrategySchema, pickCredential } from './strategies.js';

/** How to build a {@link CredentialPool}. */
export interface CredentialPoolOptions {
  /** The provider these keys belong to (`openai`, `anthropic`, `openrouter`, …); the store key. */
  readonly provider: string;
  /** The keys, e.g. from config or {@link credentialsFromEnv}. May be empty. */
  readonly credentials: readonly CredentialInput[];
  /** How to pick among usable keys. Default `fill_first`. */
  readonly strategy?: PoolStrategy;
  /** Where health is kept between runs. Default: a {@link JsonFileCredentialStore} in `HERMES_HOME`. */
  readonly store?: CredentialStateStore;
  /** Cooldown lengths; unspecified ones keep {@link DEFAULT_COOLDOWN_POLICY}. */
  readonly cooldowns?: Partial<CooldownPolicy>;
  /** The clock, epoch ms. Default `Date.now`. */
  readonly now?: () => number;
  /** The random source of the `random` strategy, in [0, 1). Default `Math.random`. */
  readonly rng?: () => number;
  /**
   * Told when the store fails to load or save. The pool keeps working from memory, because a
   * full disk must not stop the agent. Default: a process warning.
   */
  readonly onStoreError?: (error: unknown) => void;
}

/** Options of {@link CredentialPool.lease}. */
export interface LeaseOptions {
  /** Keys not to hand out this time, e.g. one the caller just saw fail elsewhere. */
  readonly excludeIds?: readonly string[];
}

/**
 * A pool of API keys for one provider.
 *
 * A key is usable when its status is `ok`; an `exhausted` key becomes `ok` again on its own once
 * its cooldown has passed (by the injected clock); a `dead` key never does until {@link reset}.
 * `lease()` is synchronous, so concurrent callers on one event loop never race each other.
 * Every lease, verdict and reset is saved to the store at once (a few hundred bytes), so a crash
 * loses nothing and a restart neither retries a dead key nor cuts a cooldown short.
 */
export class CredentialPool implements LeaseOwner {
  readonly provider: string;
  readonly strategy: PoolStrategy;
  readonly #records: PooledCredential[];
  readonly #store: CredentialStateStore;
  readonly #policy: CooldownPolicy;
  readonly #now: () => number;
  readonly #rng: () => number;
  readonly #onStoreError: (error: unknown) => void;
  #saved: PersistedPoolState | undefined;
  #lastPickedId: string | undefined;

  constructor(options: CredentialPoolOptions) {
    this.provider = options.provider;
    this.strategy = PoolStrategySchema.parse(options.strategy ?? 'fill_first');
    this.#records = buildCredentials(options.provider, options.credentials);
    this.#store = options.store ?? new JsonFileCredentialStore();
    this.#policy = { ...DEFAULT_COOLDOWN_POLICY, ...options.cooldowns };
    this.#now = options.now ?? Date.now;
    this.#rng = options.rng ?? Math.random;
    this.#onStoreError = options.onStoreError ?? warnStoreError;
    this.#saved = this.#loadState();
    applyPersisted(this.#records, this.#saved);
    this.#expireCooldowns();
  }

  /** Number of distinct keys in the pool. */
  get size(): number {
    return this.#records.length;
  }

  /**
   * Lends the key the strategy picks among the usable ones (see `leastLeased` for how open
   * leases steer `fill_first` and `least_used`). Counts the use and persists it.
   *
   * @throws NoCredentialsError (`provider.no_credentials`) when no key is usable; its message
   * and `classified.retryAfterMs` say when the earliest cooldown ends.
   */
  lease(options: LeaseOptions = {}): Lease {
    this.#expireCooldowns();
    const excluded = new Set(options.excludeIds ?? []);
    const usable = this.#records.filter((r) => r.status === 'ok' && !excluded.has(r.id));
    if (usable.length === 0) throw this.#noCredentials();
    const chosen = pickCredential(this.strategy, usable, {
      ordered: this.#records,
      lastPickedId: this.#lastPickedId,
      rng: this.#rng,
    });
    chosen.useCount += 1;
    chosen.lastUsedAt = this.#now();
    chosen.activeLeases += 1;
    this.#lastPickedId = chosen.id;
    this.#persist();
    return new PoolLease(this, describeRecord(chosen), chosen.apiKey);
  }

  /** Every key's public state, in priority order. Never includes a key, only its fingerprint. */
  status(): CredentialStatus[] {
    this.#expireCooldowns();
    return this.#records.map(describeRecord);
  }

  /**
   * Makes keys usable again — `dead` ones included — and forgets their last error: what a user
   * does after fixing a key. Without `id`, resets every key. Returns how many keys changed.
   */
  reset(id?: string): number {
    let changed = 0;
    for (const record of this.#records) {
      if (id !== undefined && record.id !== id) continue;
      if (record.status === 'ok' && record.lastErrorReason === undefined) continue;
      record.status = 'ok';
      record.cooldownUntil = undefined;
      record.lastErrorReason = undefined;
      changed += 1;
    }
    if (changed > 0) this.#persist();
    return changed;
  }

  /** @internal Called by a lease. */
  releaseLease(id: string): void {
    const record = this.#find(id);
    if (record !== undefined && record.activeLeases > 0) record.activeLeases -= 1;
  }

  /** @internal Called by a lease: a success proves a cooling key works again. */
  recordSuccess(id: string): void {
    const record = this.#find(id);
    if (record === undefined || record.status !== 'exhausted') return;
    record.status = 'ok';
    record.cooldownUntil = undefined;
    this.#persist();
  }

  /** @internal Called by a lease: applies `judgeFailure` to the key. */
  recordFailure(id: string, classified: ClassifiedError): FailureOutcome {
    const record = this.#find(id);
    if (record === undefined || record.status === 'dead') return { action: 'kept' };
    const alive = this.#records.filter((r) => r.status !== 'dead').length;
    const verdict = judgeFailure(classified, { soleCredential: alive <= 1, policy: this.#policy });
    if (verdict.kind === 'keep') return { action: 'kept' };
    record.lastErrorReason = classified.reason;
    if (verdict.kind === 'dead') {
      record.status = 'dead';
      record.cooldownUntil = undefined;
      this.#persist();
      return { action: 'dead' };
    }
    const until = this.#now() + verdict.ms;
    // Concurrent leases of one key may fail differently; keep the longer bench.
    record.cooldownUntil = Math.max(until, record.cooldownUntil ?? 0);
    record.status = 'exhausted';
    this.#persist();
    return { action: 'cooldown', cooldownUntil: record.cooldownUntil };
  }

  #find(id: string): PooledCredential | undefined {
    return this.#records.find((record) => record.id === id);
  }

  #expireCooldowns(): void {
    const now = this.#now();
    for (const record of this.#records) {
      if (record.status !== 'exhausted') continue;
      if (record.cooldownUntil !== undefined && record.cooldownUntil > now) continue;
      record.status = 'ok';
      record.cooldownUntil = undefined;
    }
  }

  #noCredentials(): NoCredentialsError {
    const cooling = this.#records.filter((r) => r.status === 'exhausted');
    const earliest = cooling.reduce<PooledCredential | undefined>(
      (best, r) =>
        best === undefined || (r.cooldownUntil ?? 0) < (best.cooldownUntil ?? 0) ? r : best,
      undefined,
    );
    return new NoCredentialsError({
      provider: this.provider,
      total: this.#records.length,
      exhausted: cooling.length,
      dead: this.#records.filter((r) => r.status === 'dead').length,
      ...(earliest?.cooldownUntil === undefined ? {} : { earliestReadyAt: earliest.cooldownUntil }),
      ...(earliest?.lastErrorReason === undefined
        ? {}
        : { earliestReason: earliest.lastErrorReason }),
      now: this.#now(),
    });
  }

  #loadState(): PersistedPoolState | undefined {
    try {
      return this.#store.load(this.provider);
    } catch (error) {
      this.#onStoreError(error);
      return undefined;
    }
  }

  /**
   * Saves every record. Entries of keys this pool does not hold are carried over from the store's
   * current state (not from what this pool loaded), so another pool's dead key is not forgotten.
   * Keys both pools hold are last-writer-wins: share one pool per provider within a process.
   */
  #persist(): void {
    const previous = this.#loadState() ?? this.#saved;
    const state = toPersisted(this.#records, previous, this.#now());
    try {
      this.#store.save(this.provider, state);
      this.#saved = state;
    } catch (error) {
      this.#onStoreError(error);
    }
  }
}

function warnStoreError(error: unknown): void {
  const detail = error instanceof Error ? error.message : String(error);
  process.emitWarning(`Credential pool state could not be stored: ${detail}`, {
    code: 'HERMES_CREDENTIAL_STORE',
  });
}
