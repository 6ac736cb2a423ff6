/**
 * Sending the parts of one reply through the delivery ledger (seed 1.4 ⑦): progress recorded
 * after each part, so a process killed mid-reply resends only what is missing; bounded retries
 * with backoff for passing failures; a dead chat leaves the ledger at once.
 */
import { errorFields, type GatewayLog, safeLog } from '../log.js';
import type { GatewayStore } from '../store/gateway-store.js';
import { isDeadTargetError } from './dead-target.js';
import { redactForChat } from './redact-for-chat.js';
import { sleep, type Timers } from './timers.js';

/** How often a failing part is tried before the delivery is left for the next start. */
export interface DeliveryRetryPolicy {
  /** Tries per part, the first included (at least 1). */
  readonly attempts: number;
  /** The wait before the second try; each later wait is four times the one before. */
  readonly baseDelayMs: number;
}

/** Three tries per part, waiting 1 s and then 4 s. */
export const DEFAULT_DELIVERY_RETRY: DeliveryRetryPolicy = { attempts: 3, baseDelayMs: 1_000 };

/** How a delivery ended in this process, and the failure that ended it. */
export interface PartsResult {
  readonly outcome: 'sent' | 'dead' | 'failed';
  readonly error?: unknown;
}

/** What {@link deliverParts} needs. */
export interface DeliverPartsOptions {
  readonly store: GatewayStore;
  /** The ledger entry; `undefined` when the ledger could not record it (sent anyway). */
  readonly id: string | undefined;
  readonly parts: readonly string[];
  /** Parts already sent (a resend starts after them). */
  readonly startAt: number;
  /** Puts part `index` in the chat (a send, or an edit of a streamed message). */
  readonly sendPart: (index: number, part: string) => Promise<void>;
  readonly retry: DeliveryRetryPolicy;
  readonly timers: Timers;
  readonly log: GatewayLog;
}

/** A short, secret-free description of a send failure for the ledger. */
export function describeFailure(error: unknown): string {
  const { error: message, code } = errorFields(error);
  return redactForChat(code === undefined ? message : `${code}: ${message}`).slice(0, 300);
}

/**
 * Sends `parts` from `startAt` on, recording progress after each; completes the entry at the
 * end. A dead chat (see `isDeadTargetError`) drops the entry; any other failure is retried per
 * `retry` and then recorded with `failDelivery(…, false)`, leaving the entry for `resendPending`.
 * Never throws: ledger errors are logged, and the reply is still sent when it can be.
 */
export async function deliverParts(options: DeliverPartsOptions): Promise<PartsResult> {
  for (let index = options.startAt; index < options.parts.length; index++) {
    const failure = await sendWithRetry(options, index, options.parts[index] ?? '');
    if (failure !== undefined) return recordFailure(options, failure);
    await ledger(options, 'progress', (id) => options.store.markDeliveryProgress(id, index + 1));
  }
  await ledger(options, 'complete', (id) => options.store.completeDelivery(id));
  return { outcome: 'sent' };
}

/** Sends one part; resolves the last error when every try failed (or the chat is gone). */
async function sendWithRetry(
  options: DeliverPartsOptions,
  index: number,
  part: string,
): Promise<unknown> {
  const attempts = Math.max(1, options.retry.attempts);
  let delay = options.retry.baseDelayMs;
  for (let attempt = 1; ; attempt++) {
    try {
      await options.sendPart(index, part);
      return undefined;
    } catch (error) {
      if (isDeadTargetError(error) || attempt >= attempts) return error ?? new Error('failed');
      safeLog(options.log, 'warn', 'delivery: send failed, retrying', {
        ...errorFields(error),
        part: index,
        attempt,
      });
      await sleep(options.timers, delay);
      delay *= 4;
    }
  }
}

async function recordFailure(options: DeliverPartsOptions, error: unknown): Promise<PartsResult> {
  const dead = isDeadTargetError(error);
  safeLog(
    options.log,
    dead ? 'warn' : 'error',
    dead ? 'delivery: chat is gone' : 'delivery: gave up for now',
    {
      ...errorFields(error),
      delivery: options.id,
    },
  );
  const reason = describeFailure(error);
  await ledger(options, 'fail', (id) => options.store.failDelivery(id, reason, dead));
  return { outcome: dead ? 'dead' : 'failed', error };
}

async function ledger(
  options: DeliverPartsOptions,
  what: string,
  write: (id: string) => Promise<void>,
): Promise<void> {
  if (options.id === undefined) return;
  try {
    await write(options.id);
  } catch (error) {
    safeLog(options.log, 'error', `delivery: ledger ${what} failed`, errorFields(error));
  }
}

/**
 * Records a reply in the ledger before its first part is sent. A store that fails is logged and
 * the reply is sent without an entry: a lost ledger row is better than a lost answer.
 */
export async function openLedgerEntry(
  store: GatewayStore,
  entry: Parameters<GatewayStore['addDelivery']>[0],
  log: GatewayLog,
): Promise<string | undefined> {
  try {
    return await store.addDelivery(entry);
  } catch (error) {
    safeLog(log, 'error', 'delivery: ledger add failed; sending without it', errorFields(error));
    return undefined;
  }
}
