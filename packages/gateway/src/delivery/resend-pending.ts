/** Resending what the previous process had not finished sending (seed 1.4 ⑦). */
import { errorFields, type GatewayLog, safeLog, silentLog } from '../log.js';
import type { PlatformAdapter } from '../platform-adapter.js';
import type { GatewayStore, PendingDelivery } from '../store/gateway-store.js';
import { deliverParts } from './deliver-parts.js';
import { SYSTEM_TIMERS } from './timers.js';

/** After this many failed starts a delivery is dropped: the retry queue must not grow forever. */
export const MAX_DELIVERY_ATTEMPTS = 8;

/** A reply older than this is dropped instead of resent: a day-old answer is noise. */
export const MAX_DELIVERY_AGE_MS = 24 * 3_600_000;

/** Tuning for {@link resendPending}. */
export interface ResendOptions {
  readonly clock?: () => number;
}

/**
 * Sends every reply still in the ledger, each from the part after its `sentParts`, through the
 * adapter of its platform (one try per part: the next start tries again). Replies for a platform
 * with no adapter here are left alone; ones past {@link MAX_DELIVERY_ATTEMPTS} or
 * {@link MAX_DELIVERY_AGE_MS}, or whose chat is gone, are dropped and counted as failed.
 * Call it once adapters are connected. Never throws.
 *
 * @returns How many replies were completed and how many failed.
 */
export async function resendPending(
  store: GatewayStore,
  adapters: ReadonlyMap<string, PlatformAdapter>,
  log: GatewayLog = silentLog,
  options: ResendOptions = {},
): Promise<{ sent: number; failed: number }> {
  const now = (options.clock ?? Date.now)();
  let pending: PendingDelivery[];
  try {
    pending = await store.pendingDeliveries();
  } catch (error) {
    safeLog(log, 'error', 'delivery: could not read the ledger', errorFields(error));
    return { sent: 0, failed: 0 };
  }
  const counts = { sent: 0, failed: 0 };
  for (const delivery of pending) {
    const adapter = adapters.get(delivery.platform);
    if (!adapter) continue;
    const result = await resendOne(store, adapter, delivery, now, log);
    if (result === 'sent') counts.sent++;
    else counts.failed++;
  }
  if (pending.length > 0) safeLog(log, 'info', 'delivery: resent the ledger', counts);
  return counts;
}

async function resendOne(
  store: GatewayStore,
  adapter: PlatformAdapter,
  delivery: PendingDelivery,
  now: number,
  log: GatewayLog,
): Promise<'sent' | 'failed'> {
  const stale = now - delivery.createdAt > MAX_DELIVERY_AGE_MS;
  if (stale || delivery.attempts >= MAX_DELIVERY_ATTEMPTS) {
    const reason = stale ? 'older than a day' : `failed ${delivery.attempts} times`;
    safeLog(log, 'warn', `delivery: dropped, ${reason}`, { delivery: delivery.id });
    try {
      await store.failDelivery(delivery.id, `dropped: ${reason}`, true);
    } catch (error) {
      safeLog(log, 'error', 'delivery: ledger fail failed', errorFields(error));
    }
    return 'failed';
  }
  const parts = adapter.splitMessage(delivery.text, delivery.target.chatId);
  const result = await deliverParts({
    store,
    id: delivery.id,
    parts,
    startAt: delivery.sentParts,
    sendPart: async (_index, part) => {
      await adapter.send(delivery.target, { text: part });
    },
    retry: { attempts: 1, baseDelayMs: 0 },
    timers: SYSTEM_TIMERS,
    log,
  });
  return result.outcome === 'sent' ? 'sent' : 'failed';
}
