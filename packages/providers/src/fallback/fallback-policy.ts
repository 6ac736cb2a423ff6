/** Which failures justify switching to the next member of the fallback chain, and when. */
import { isAbortError } from '../abort.js';
import { type FailureReason, isProviderError } from '../classified-error.js';

/**
 * When a failure may move the turn to a fallback:
 * - `immediate` — `auth`, `auth_permanent`, `model_not_found`, `billing`: retrying the same
 *   member cannot help, so the first failure is enough.
 * - `after_retries` — `rate_limit`, `overloaded`, `server_error`, `timeout`, `unknown`: the
 *   member may recover, so only once the host's retries inside that member are spent.
 * - `never` — `aborted` (the caller cancelled), and `format_error`, `context_overflow`,
 *   `payload_too_large`, `thinking_signature`, `long_context_tier`: the request itself must
 *   change (fix, compress, strip reasoning), which another provider would reject just the same.
 */
export type FallbackTiming = 'immediate' | 'after_retries' | 'never';

const TIMING: Readonly<Record<FailureReason, FallbackTiming>> = {
  auth: 'immediate',
  auth_permanent: 'immediate',
  model_not_found: 'immediate',
  billing: 'immediate',
  rate_limit: 'after_retries',
  overloaded: 'after_retries',
  server_error: 'after_retries',
  timeout: 'after_retries',
  unknown: 'after_retries',
  aborted: 'never',
  format_error: 'never',
  context_overflow: 'never',
  payload_too_large: 'never',
  thinking_signature: 'never',
  long_context_tier: 'never',
};

/** The {@link FallbackTiming} of a failure reason. */
export function fallbackTiming(reason: FailureReason): FallbackTiming {
  return TIMING[reason];
}

/**
 * Whether `error`, which already went through the member's retries, warrants a fallback: a
 * classified provider error (a `ProviderError`, or a pool's `provider.no_credentials`) whose
 * classification sets `shouldFallback` and whose reason is not one the caller must handle. An
 * abort never does.
 */
export function warrantsFallback(error: unknown): boolean {
  if (isAbortError(error) || !isProviderError(error)) return false;
  const { classified } = error;
  return classified.shouldFallback && fallbackTiming(classified.reason) !== 'never';
}
