/**
 * Stage 2 of the pipeline: the HTTP status, refined by the body where one status means several
 * things (402 usage window vs. empty wallet, 429 overload vs. rate limit, 400 context vs. format).
 */
import type { ErrorContext, FailureReason } from '../classified-error.js';
import { byErrorCode, byMessage } from './body-stages.js';
import type { ErrorFacts } from './facts.js';
import {
  BILLING_PHRASES,
  CONTEXT_PHRASES,
  GATEWAY_PHRASES,
  hasAny,
  MODEL_NOT_FOUND_PHRASES,
  OVERLOADED_PHRASES,
  PERMANENT_AUTH_PHRASES,
  REQUEST_VALIDATION_PHRASES,
} from './patterns.js';
import { BARE_400_SIZE, DISCONNECT_SIZE, isLargeSession } from './session-size.js';

/** What a 400's body may reveal; anything else on a 400 is our malformed request. */
const REFINABLE_400: ReadonlySet<FailureReason> = new Set([
  'context_overflow',
  'model_not_found',
  'rate_limit',
  'billing',
  'payload_too_large',
]);

/** A wallet that is empty whatever the wording around it says. */
const HARD_BILLING_PHRASES = [
  'insufficient credits',
  'insufficient_credits',
  'insufficient balance',
  'out of credits',
  'out of funds',
  'no usable credits',
  'credits exhausted',
  'credits have been exhausted',
  'top up',
  'balance_depleted',
];

/** Words that say a 402 is a usage window which reopens by itself. */
const RESET_SIGNALS = ['try again', 'resets at', 'reset at', 'resets in', 'reset in'];

function status400(facts: ErrorFacts, context: ErrorContext): FailureReason {
  // "Unsupported parameter: 'max_tokens'" mentions tokens but compressing will not fix it.
  if (hasAny(facts.text, REQUEST_VALIDATION_PHRASES)) return 'format_error';
  const refined = byErrorCode(facts) ?? byMessage(facts);
  if (refined !== undefined && REFINABLE_400.has(refined)) return refined;
  // Anthropic sometimes answers an oversized prompt with a bare "Error".
  const bare = facts.display.trim().length < 30;
  return bare && isLargeSession(context, BARE_400_SIZE) ? 'context_overflow' : 'format_error';
}

function status402(facts: ErrorFacts): FailureReason {
  const t = facts.text;
  if (hasAny(t, HARD_BILLING_PHRASES)) return 'billing';
  const window =
    hasAny(t, RESET_SIGNALS) ||
    t.includes('usage limit') ||
    (t.includes('quota') && t.includes('retry'));
  return window ? 'rate_limit' : 'billing';
}

function status403(facts: ErrorFacts): FailureReason {
  const t = facts.text;
  if (
    hasAny(t, BILLING_PHRASES) ||
    t.includes('key limit exceeded') ||
    t.includes('spending limit')
  )
    return 'billing';
  if (facts.type === 'permission_error' || hasAny(t, PERMANENT_AUTH_PHRASES)) {
    return 'auth_permanent';
  }
  return 'auth';
}

function status404(facts: ErrorFacts): FailureReason {
  if (hasAny(facts.text, BILLING_PHRASES)) return 'billing';
  if (byErrorCode(facts) === 'model_not_found') return 'model_not_found';
  if (hasAny(facts.text, MODEL_NOT_FOUND_PHRASES)) return 'model_not_found';
  // A bare 404 is usually a wrong base URL or path, not a missing model: do not fall back.
  return 'unknown';
}

function status429(facts: ErrorFacts): FailureReason {
  if (facts.code === 'insufficient_quota' || facts.type === 'insufficient_quota') return 'billing';
  if (hasAny(facts.text, OVERLOADED_PHRASES)) return 'overloaded';
  return 'rate_limit';
}

/** A Cloudflare / origin 5xx on a large session hides an oversized prompt. */
function isGatewayOverflow(facts: ErrorFacts, context: ErrorContext): boolean {
  return hasAny(facts.text, GATEWAY_PHRASES) && isLargeSession(context, DISCONNECT_SIZE);
}

function status5xx(status: number, facts: ErrorFacts, context: ErrorContext): FailureReason {
  if (hasAny(facts.text, CONTEXT_PHRASES) || isGatewayOverflow(facts, context)) {
    return 'context_overflow';
  }
  // Some gateways report a malformed request as 5xx; retrying repeats the same rejection.
  if (hasAny(facts.text, REQUEST_VALIDATION_PHRASES)) return 'format_error';
  return status === 503 || status === 529 ? 'overloaded' : 'server_error';
}

/** Statuses whose meaning needs no body. */
const FIXED_STATUS: ReadonlyMap<number, FailureReason> = new Map([
  [401, 'auth'],
  [408, 'timeout'],
  [413, 'payload_too_large'],
]);

/** Stage 2: the HTTP status, with the body consulted where a status is ambiguous. */
export function byStatus(facts: ErrorFacts, context: ErrorContext): FailureReason | undefined {
  const status = facts.status;
  if (status === undefined) return undefined;
  const fixed = FIXED_STATUS.get(status);
  if (fixed !== undefined) return fixed;
  switch (status) {
    case 400:
      return status400(facts, context);
    case 402:
      return status402(facts);
    case 403:
      return status403(facts);
    case 404:
      return status404(facts);
    case 429:
      return status429(facts);
  }
  if (status >= 500) return status5xx(status, facts, context);
  if (status >= 400) return 'format_error';
  return undefined;
}
