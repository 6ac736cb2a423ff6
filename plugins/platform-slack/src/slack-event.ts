/** A Slack `message` / `app_mention` event as the gateway's `InboundMessage`, or nothing. */
import type { InboundMessage } from '@hermes/plugin-sdk';

/** Message subtypes that still carry a person's words. */
const HUMAN_SUBTYPES = new Set(['file_share', 'thread_broadcast']);

/**
 * Normalizes one event. Returns `undefined` for what the agent must not answer: bots (itself
 * included), edits, joins and other subtypes, and, outside DMs, messages that do not mention
 * the bot (group gating). The mention is removed from the text. A reply goes in the message's
 * thread: `threadId` is the thread's `thread_ts`, or in a channel the message's own `ts`.
 */
export function toInbound(
  event: Readonly<Record<string, unknown>> | undefined,
  botUserId: string,
): InboundMessage | undefined {
  if (!event || (event.type !== 'message' && event.type !== 'app_mention')) return undefined;
  const { channel, user, ts } = event;
  const text = typeof event.text === 'string' ? event.text : '';
  if (typeof channel !== 'string' || typeof user !== 'string' || typeof ts !== 'string') {
    return undefined;
  }
  if (event.bot_id !== undefined || user === botUserId) return undefined;
  if (typeof event.subtype === 'string' && !HUMAN_SUBTYPES.has(event.subtype)) return undefined;
  const isDirect =
    typeof event.channel_type === 'string' ? event.channel_type === 'im' : channel.startsWith('D');
  const mention = botUserId ? `<@${botUserId}>` : undefined;
  if (!isDirect && (!mention || !text.includes(mention))) return undefined;
  const threadTs = typeof event.thread_ts === 'string' ? event.thread_ts : undefined;
  const threadId = threadTs ?? (isDirect ? undefined : ts);
  const seconds = Number(ts);
  return {
    platform: 'slack',
    chatId: channel,
    ...(threadId ? { threadId } : {}),
    userId: user,
    text: mention ? text.replaceAll(mention, '').replace(/\s+/g, ' ').trim() : text,
    messageId: ts,
    receivedAt: Number.isFinite(seconds) ? Math.round(seconds * 1000) : Date.now(),
    isDirect,
  };
}
