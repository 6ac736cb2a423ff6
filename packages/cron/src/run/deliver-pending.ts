/**
 * Sending what was queued while no gateway ran, on the gateway's start. The policy mirrors the
 * gateway's own resend ledger: one try per start, dropped after 8 failed starts or when older
 * than a day (a day-old report is noise), and never an unbounded queue.
 */
import { describeThrown, redactSecrets } from '@hermes/tools';
import type { PendingDelivery } from '../job.js';
import type { JobStore } from '../store/job-store.js';
import type { CronExecutorLog } from './executor.js';
import type { CronDelivery } from './seams.js';

/** Failed attempts after which a pending delivery is dropped. */
export const MAX_PENDING_ATTEMPTS = 8;

/** A pending delivery older than this is dropped instead of sent. */
export const MAX_PENDING_AGE_MS = 24 * 3_600_000;

/** Options of {@link deliverPendingJobs}. */
export interface DeliverPendingOptions {
  /** Default {@link MAX_PENDING_ATTEMPTS}. */
  readonly maxAttempts?: number;
  /** Default {@link MAX_PENDING_AGE_MS}. */
  readonly maxAgeMs?: number;
  readonly clock?: () => number;
  readonly log?: CronExecutorLog;
}

/** What one pass did. */
export interface DeliverPendingResult {
  readonly sent: number;
  readonly failed: number;
  readonly dropped: number;
}

type Attempt = 'sent' | 'failed' | 'dropped';

function dropReason(
  pending: PendingDelivery,
  now: number,
  options: DeliverPendingOptions,
): string | undefined {
  if (now - pending.createdAt > (options.maxAgeMs ?? MAX_PENDING_AGE_MS)) return 'older than a day';
  const maxAttempts = options.maxAttempts ?? MAX_PENDING_ATTEMPTS;
  if (pending.attempts >= maxAttempts) return `failed ${pending.attempts} times`;
  return undefined;
}

async function attempt(
  store: JobStore,
  delivery: CronDelivery,
  pending: PendingDelivery,
  now: number,
  options: DeliverPendingOptions,
): Promise<Attempt> {
  const job = await store.get(pending.jobId);
  const reason = job ? dropReason(pending, now, options) : 'its job was removed';
  if (reason !== undefined || !job) {
    await store.removePendingDelivery(pending.id);
    if (job) await store.setDeliveryError(job.id, `dropped a queued delivery: ${reason}`);
    options.log?.warn(`cron: dropped a pending delivery, ${reason}`, { job: pending.jobId });
    return 'dropped';
  }
  try {
    await delivery.deliver(pending.target, pending.text, job);
  } catch (error) {
    await store.notePendingFailure(pending.id, redactSecrets(describeThrown(error)));
    return 'failed';
  }
  await store.removePendingDelivery(pending.id);
  await store.setDeliveryError(job.id, null);
  return 'sent';
}

/**
 * Sends every pending delivery through `delivery` (a live one: the gateway's), oldest first.
 * A sent one is removed; a failed one counts an attempt and waits for the next start. Does
 * nothing with a delivery that is not live (it would only queue the text again). Never throws.
 */
export async function deliverPendingJobs(
  store: JobStore,
  delivery: CronDelivery,
  options: DeliverPendingOptions = {},
): Promise<DeliverPendingResult> {
  const counts = { sent: 0, failed: 0, dropped: 0 };
  if (!delivery.live) {
    options.log?.warn('cron: pending deliveries need a live delivery; none was sent');
    return counts;
  }
  const now = (options.clock ?? Date.now)();
  let queue: PendingDelivery[];
  try {
    queue = await store.listPendingDeliveries();
  } catch (error) {
    options.log?.warn('cron: could not read pending deliveries', { error: describeThrown(error) });
    return counts;
  }
  for (const pending of queue) {
    try {
      counts[await attempt(store, delivery, pending, now, options)]++;
    } catch (error) {
      // A store failure on one entry must not stop the others; the entry stays for next time.
      options.log?.warn('cron: a pending delivery could not be processed', {
        job: pending.jobId,
        error: describeThrown(error),
      });
      counts.failed++;
    }
  }
  if (counts.sent + counts.failed + counts.dropped > 0) {
    options.log?.info('cron: delivered pending job results', { ...counts });
  }
  return counts;
}
