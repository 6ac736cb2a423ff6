/** A key on loan from a pool to one model call. */
import type { ClassifiedError } from '../classified-error.js';
import type { CredentialStatus } from './credential.js';

/** What a reported failure did to the leased key. */
export interface FailureOutcome {
  /**
   * `kept`: the failure was not the key's fault (or was already reported), the key stays in
   * rotation. `cooldown`: benched until `cooldownUntil`. `dead`: out until reset.
   */
  readonly action: 'kept' | 'cooldown' | 'dead';
  /** Epoch ms when a benched key is usable again. */
  readonly cooldownUntil?: number;
}

/**
 * One key on loan. While a lease is open, `fill_first` and `least_used` steer other callers to
 * keys with fewer leases. Settle it exactly once with `reportSuccess` or `reportFailure` (each
 * also releases); `release` alone returns the key without a verdict. Extra calls are ignored,
 * so `finally { lease.release() }` after a report is safe.
 */
export interface Lease {
  /** The key's public state when it was leased (no secret). */
  readonly credential: CredentialStatus;
  /** The secret to send. Keep it out of logs, errors and events. */
  readonly apiKey: string;
  /** Returns the key to the pool. Idempotent. */
  release(): void;
  /** The call succeeded: a cooling key is usable again. Releases the lease. */
  reportSuccess(): void;
  /**
   * The call failed: bench or kill the key as the classification warrants (see `judgeFailure`).
   * Releases the lease. A second report on the same lease changes nothing.
   */
  reportFailure(classified: ClassifiedError): FailureOutcome;
}

/** What a lease needs from its pool. Internal. */
export interface LeaseOwner {
  releaseLease(id: string): void;
  recordSuccess(id: string): void;
  recordFailure(id: string, classified: ClassifiedError): FailureOutcome;
}

/** The {@link Lease} a pool hands out. Internal: callers only see the interface. */
export class PoolLease implements Lease {
  readonly credential: CredentialStatus;
  readonly #apiKey: string;
  readonly #owner: LeaseOwner;
  #released = false;
  #reported = false;

  constructor(owner: LeaseOwner, credential: CredentialStatus, apiKey: string) {
    this.#owner = owner;
    this.credential = credential;
    this.#apiKey = apiKey;
  }

  /** A getter over a private field, so `console.log(lease)` and inspectors never show the key. */
  get apiKey(): string {
    return this.#apiKey;
  }

  release(): void {
    if (this.#released) return;
    this.#released = true;
    this.#owner.releaseLease(this.credential.id);
  }

  reportSuccess(): void {
    if (!this.#reported) {
      this.#reported = true;
      this.#owner.recordSuccess(this.credential.id);
    }
    this.release();
  }

  reportFailure(classified: ClassifiedError): FailureOutcome {
    let outcome: FailureOutcome = { action: 'kept' };
    if (!this.#reported) {
      this.#reported = true;
      outcome = this.#owner.recordFailure(this.credential.id, classified);
    }
    this.release();
    return outcome;
  }

  /** Keeps the secret out of `JSON.stringify` and structured logs. */
  toJSON(): { credential: CredentialStatus } {
    return { credential: this.credential };
  }
}
