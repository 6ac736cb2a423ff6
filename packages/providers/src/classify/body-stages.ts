/**
 * Pipeline stages that read the response body: the provider-specific patterns (stage 1), the
 * structured error code / type (stage 3) and the message phrases (stage 4). Each returns a
 * reason or `undefined` to pass the error on.
 */
import type { FailureReason } from '../classified-error.js';
import type { ErrorFacts } from './facts.js';
import {
  AUTH_PHRASES,
  BILLING_PHRASES,
  CONTEXT_PHRASES,
  hasAny,
  MODEL_NOT_FOUND_PHRASES,
  OVERLOADED_PHRASES,
  PAYLOAD_TOO_LARGE_PHRASES,
  PERMANENT_AUTH_PHRASES,
  RATE_LIMIT_PHRASES,
  TIMEOUT_PHRASES,
  USAGE_LIMIT_PHRASES,
  USAGE_WINDOW_SIGNALS,
} from './patterns.js';

/**
 * Anthropic rejects replayed thinking whose signature no longer matches (after compression or
 * message merging) or that was edited. Checked before the status because OpenRouter relays it
 * as a plain 400 that would otherwise read as `format_error`.
 */
function isThinkingSignature(facts: ErrorFacts): boolean {
  const t = facts.text;
  if (facts.status !== undefined && facts.status !== 400) return false;
  return (
    t.includes('thinking') &&
    (t.includes('signature') ||
      t.includes('cannot be modified') ||
      t.includes('must remain as they were'))
  );
}

/**
 * Anthropic's long-context gates: 429 "Extra usage is required for long context requests" and
 * 400 "The long context beta is not yet available for this subscription" (the 1M-context beta).
 */
function isLongContextTier(facts: ErrorFacts): boolean {
  const t = facts.text;
  if (facts.status !== undefined && ![400, 403, 429].includes(facts.status)) return false;
  const longContext = t.includes('long context') || t.includes('context-1m');
  return longContext && hasAny(t, ['extra usage', 'not yet available', 'not available', 'tier']);
}

/** Stage 1: provider-specific patterns that a generic status rule would misread. */
export function byProviderPattern(facts: ErrorFacts): FailureReason | undefined {
  if (isThinkingSignature(facts)) return 'thinking_signature';
  if (isLongContextTier(facts)) return 'long_context_tier';
  return undefined;
}

/** Structured codes and types, as OpenAI (`code`), Anthropic (`type`) and others spell them. */
const CODE_REASONS: Readonly<Record<string, FailureReason>> = {
  context_length_exceeded: 'context_overflow',
  rate_limit_exceeded: 'rate_limit',
  rate_limit_error: 'rate_limit',
  resource_exhausted: 'rate_limit',
  throttled: 'rate_limit',
  // OpenAI uses insufficient_quota (on a 429!) for an exhausted billing balance.
  insufficient_quota: 'billing',
  billing_error: 'billing',
  billing_not_active: 'billing',
  payment_required: 'billing',
  insufficient_credits: 'billing',
  balance_depleted: 'billing',
  overloaded_error: 'overloaded',
  api_error: 'server_error',
  server_error: 'server_error',
  timeout_error: 'timeout',
  invalid_api_key: 'auth',
  authentication_error: 'auth',
  permission_error: 'auth_permanent',
  permission_denied: 'auth_permanent',
  model_not_found: 'model_not_found',
  model_not_available: 'model_not_found',
  invalid_model: 'model_not_found',
  request_too_large: 'payload_too_large',
};

/** Stage 3: the body's structured code, then its type. */
export function byErrorCode(facts: ErrorFacts): FailureReason | undefined {
  for (const key of [facts.code, facts.type]) {
    const reason = key === undefined ? undefined : CODE_REASONS[key];
    if (reason !== undefined) return reason;
  }
  // Anthropic's 404 type is generic; its message names the missing thing ("model: claude-x").
  if (facts.type === 'not_found_error' && facts.text.includes('model')) return 'model_not_found';
  return undefined;
}

/**
 * A usage limit is a window that resets ("try again in 5 minutes") or an empty wallet. Used for
 * status-less messages; 402 has its own, stricter rule in the status stage.
 */
function usageLimitReason(text: string): FailureReason | undefined {
  if (!hasAny(text, USAGE_LIMIT_PHRASES)) return undefined;
  return hasAny(text, USAGE_WINDOW_SIGNALS) ? 'rate_limit' : 'billing';
}

/** Message phrases in priority order: the first family that matches wins. */
const FIRST_FAMILIES: ReadonlyArray<readonly [readonly string[], FailureReason]> = [
  [PAYLOAD_TOO_LARGE_PHRASES, 'payload_too_large'],
  [OVERLOADED_PHRASES, 'overloaded'],
  [BILLING_PHRASES, 'billing'],
  // Before the usage-limit rule: "rate limit exceeded" is throttling, not an empty wallet.
  [RATE_LIMIT_PHRASES, 'rate_limit'],
];
const LATER_FAMILIES: ReadonlyArray<readonly [readonly string[], FailureReason]> = [
  [CONTEXT_PHRASES, 'context_overflow'],
  [PERMANENT_AUTH_PHRASES, 'auth_permanent'],
  [AUTH_PHRASES, 'auth'],
  [MODEL_NOT_FOUND_PHRASES, 'model_not_found'],
  [TIMEOUT_PHRASES, 'timeout'],
];

/** Stage 4: what the message says, for errors whose status and code said nothing. */
export function byMessage(facts: ErrorFacts): FailureReason | undefined {
  const t = facts.text;
  const first = FIRST_FAMILIES.find(([phrases]) => hasAny(t, phrases));
  if (first !== undefined) return first[1];
  const usage = usageLimitReason(t);
  if (usage !== undefined) return usage;
  return LATER_FAMILIES.find(([phrases]) => hasAny(t, phrases))?.[1];
}
