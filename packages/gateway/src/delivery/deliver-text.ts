/** One-shot delivery of a text to a chat: notices, webhook results, cross-platform messages. */
import { HermesError } from '@hermes/protocol';
import { type GatewayLog, silentLog } from '../log.js';
import type { SendTarget } from '../messages.js';
import type { PlatformAdapter } from '../platform-adapter.js';
import type { GatewayStore } from '../store/gateway-store.js';
import {
  DEFAULT_DELIVERY_RETRY,
  type DeliveryRetryPolicy,
  deliverParts,
  openLedgerEntry,
} from './deliver-parts.js';
import { redactForChat } from './redact-for-chat.js';
import { SYSTEM_TIMERS, type Timers } from './timers.js';

/** Where {@link deliverText} records the delivery, and how it retries. */
export interface DeliverTextOptions {
  readonly store: GatewayStore;
  /** The session the text belongs to (for the ledger). */
  readonly sessionKey: string;
  /** The adapter's platform name, as the ledger and `resendPending` know it. */
  readonly platform: string;
  readonly retry?: DeliveryRetryPolicy;
  readonly timers?: Timers;
  readonly clock?: () => number;
  readonly log?: GatewayLog;
}

/**
 * Sends `text` to `target` as one or more messages: redacted, rendered, split, and recorded in
 * the delivery ledger before the first part (progress per part, completed at the end). A blank
 * text sends nothing.
 *
 * @throws HermesError `gateway.delivery_failed` when the chat is gone (the entry is dropped) or
 *   every retry failed (the entry stays in the ledger for `resendPending`).
 */
export async function deliverText(
  adapter: PlatformAdapter,
  target: SendTarget,
  text: string,
  options: DeliverTextOptions,
): Promise<void> {
  const log = options.log ?? silentLog;
  const rendered = adapter.renderMarkdown(redactForChat(text));
  const parts = adapter.splitMessage(rendered, target.chatId);
  if (parts.length === 0) return;
  const id = await openLedgerEntry(
    options.store,
    {
      sessionKey: options.sessionKey,
      platform: options.platform,
      target,
      text: rendered,
      createdAt: (options.clock ?? Date.now)(),
    },
    log,
  );
  const result = await deliverParts({
    store: options.store,
    id,
    parts,
    startAt: 0,
    sendPart: async (_index, part) => {
      await adapter.send(target, { text: part });
    },
    retry: options.retry ?? DEFAULT_DELIVERY_RETRY,
    timers: options.timers ?? SYSTEM_TIMERS,
    log,
  });
  if (result.outcome !== 'sent') {
    throw new HermesError(
      'gateway.delivery_failed',
      result.outcome === 'dead'
        ? `The ${options.platform} chat ${target.chatId} is gone; the message was dropped.`
        : `Could not deliver to ${options.platform} chat ${target.chatId}; it will be resent on the next start.`,
      {
        cause: result.error,
        details: { platform: options.platform, dead: result.outcome === 'dead' },
      },
    );
  }
}
