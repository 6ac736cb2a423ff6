/**
 * Pipeline stages for failures with no response at all: Hermes' own signals (cancellation, the
 * stale-stream watchdog), transport timeouts, a dropped connection on a large session (stage 6,
 * a probable silent context overflow), and other connection failures.
 */
import type { ErrorContext, FailureReason } from '../classified-error.js';
import { STALE_STREAM_CODE } from '../stream/stale-watchdog.js';
import type { ErrorFacts } from './facts.js';
import {
  CONNECT_ERRNOS,
  CONNECTION_NAMES,
  DISCONNECT_ERRNOS,
  DISCONNECT_PHRASES,
  hasAny,
  TIMEOUT_ERRNOS,
  TIMEOUT_NAMES,
  TLS_PHRASES,
} from './patterns.js';
import { DISCONNECT_SIZE, isLargeSession } from './session-size.js';

/** Hermes codes that mean "the caller cancelled". */
const ABORT_CODES = ['provider.aborted'];
/** Error names that mean "the caller cancelled" (DOM, fetch, both SDKs). */
const ABORT_NAMES = ['AbortError', 'APIUserAbortError'];

function someIn(values: readonly string[], set: ReadonlySet<string>): boolean {
  return values.some((value) => set.has(value));
}

/**
 * Stage 0: Hermes' own signals, which outrank anything a wrapped cause says. A stale stream is
 * checked first because the watchdog stops the SDK by aborting it, so an `APIUserAbortError`
 * sits underneath; only a bare cancellation is `aborted`.
 */
export function byHermesSignal(facts: ErrorFacts): FailureReason | undefined {
  if (facts.hermesCodes.includes(STALE_STREAM_CODE)) return 'timeout';
  if (facts.hermesCodes.some((code) => ABORT_CODES.includes(code))) return 'aborted';
  if (facts.names.some((name) => ABORT_NAMES.includes(name))) return 'aborted';
  return undefined;
}

/** Stage 5a: connect, header and body timeouts (including `AbortSignal.timeout`). */
export function byTransportTimeout(facts: ErrorFacts): FailureReason | undefined {
  if (facts.status !== undefined) return undefined;
  const timedOut = someIn(facts.names, TIMEOUT_NAMES) || someIn(facts.errnos, TIMEOUT_ERRNOS);
  return timedOut ? 'timeout' : undefined;
}

/** The connection was established and then dropped (reset, hang-up, undici "terminated"). */
function isDisconnect(facts: ErrorFacts): boolean {
  if (someIn(facts.errnos, DISCONNECT_ERRNOS)) return true;
  if (hasAny(facts.text, DISCONNECT_PHRASES)) return true;
  // undici reports a body cut mid-stream as a TypeError whose whole message is "terminated".
  return /(?:^|\n)terminated(?:\n|$)/.test(facts.text);
}

/**
 * Stage 6 (run before the generic transport stage, as the seed requires: otherwise every drop
 * reads as transient): some gateways close the connection instead of answering "prompt too
 * long", so a drop on a large session is treated as a context overflow and compressed.
 */
export function byDisconnectOnLargeSession(
  facts: ErrorFacts,
  context: ErrorContext,
): FailureReason | undefined {
  if (facts.status !== undefined || hasAny(facts.text, TLS_PHRASES)) return undefined;
  return isDisconnect(facts) && isLargeSession(context, DISCONNECT_SIZE)
    ? 'context_overflow'
    : undefined;
}

/** Stage 5b: any other connection failure — transient, like a 5xx. */
export function byTransportFailure(facts: ErrorFacts): FailureReason | undefined {
  if (facts.status !== undefined) return undefined;
  const failed =
    isDisconnect(facts) ||
    someIn(facts.errnos, CONNECT_ERRNOS) ||
    someIn(facts.names, CONNECTION_NAMES) ||
    hasAny(facts.text, TLS_PHRASES) ||
    facts.text.includes('fetch failed');
  return failed ? 'server_error' : undefined;
}
