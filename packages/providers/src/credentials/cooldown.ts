/** How long a failed key sits out, decided from the classified failure. */
import type { ClassifiedError } from '../classified-error.js';

/** Cooldown lengths, in milliseconds. */
export interface CooldownPolicy {
  /** After a (possibly transient) auth failure, e.g. a 401. Default 5 minutes. */
  readonly authMs: number;
  /** After a rate limit, a usage-window 402, billing and any other rotate-worthy failure. Default 1 hour. */
  readonly defaultMs: number;
  /**
   * Upper bound for transient throttles (anything but auth and billing) when the failed key is
   * the only one left: an hour-long bench on the sole key would mean an hour of hard failures
   * with nothing to rotate to, while throttles typically clear in seconds. Default 1 minute.
   */
  readonly soleCredentialMs: number;
}

/** The defaults: 401 → 5 min; 429 / 402 / other → 1 h; a sole key's throttle → 1 min. */
export const DEFAULT_COOLDOWN_POLICY: CooldownPolicy = {
  authMs: 5 * 60_000,
  defaultMs: 60 * 60_000,
  soleCredentialMs: 60_000,
};

/** What a failure means for the key that saw it. */
export type FailureVerdict =
  | { readonly kind: 'keep' }
  | { readonly kind: 'cooldown'; readonly ms: number }
  | { readonly kind: 'dead' };

/**
 * Judges one failure:
 * - `auth_permanent` → `dead` (the key is revoked; retrying can only fail).
 * - Not rotate-worthy (neither `shouldRotateCredential` nor `auth`) → `keep`: the failure is not
 *   the key's fault (a bad request, an overloaded service), so benching it would only hurt.
 * - A provider-supplied wait (`retryAfterMs`) wins over every default.
 * - `auth` → {@link CooldownPolicy.authMs}; otherwise {@link CooldownPolicy.defaultMs}, capped at
 *   {@link CooldownPolicy.soleCredentialMs} for a sole key's non-billing failure.
 */
export function judgeFailure(
  classified: ClassifiedError,
  context: { readonly soleCredential: boolean; readonly policy: CooldownPolicy },
): FailureVerdict {
  if (classified.reason === 'auth_permanent') return { kind: 'dead' };
  const rotate = classified.shouldRotateCredential || classified.reason === 'auth';
  if (!rotate) return { kind: 'keep' };
  if (classified.retryAfterMs !== undefined && classified.retryAfterMs > 0) {
    return { kind: 'cooldown', ms: Math.ceil(classified.retryAfterMs) };
  }
  const { policy } = context;
  if (classified.reason === 'auth') return { kind: 'cooldown', ms: policy.authMs };
  if (context.soleCredential && classified.reason !== 'billing') {
    return { kind: 'cooldown', ms: Math.min(policy.defaultMs, policy.soleCredentialMs) };
  }
  return { kind: 'cooldown', ms: policy.defaultMs };
}
