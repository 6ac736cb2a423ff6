/**
 * A MESSAGE_CREATE dispatch → an `InboundMessage`, or nothing: bots (this one included) are
 * ignored, and in a guild channel the bot answers only when mentioned or replied to, and only in
 * `allowed_channels` when that list is set. In a thread, the parent channel is the chat and the
 * thread its `threadId`; a thread the bot started itself needs no mention. DMs always pass here;
 * the gateway's own allowlist and pairing decide who may talk.
 */
import type { InboundMessage } from '@hermes/plugin-sdk';
import { z } from 'zod';
import type { ChannelPlace } from './threads.js';

/**
 * The fields of Discord's message object this adapter reads, validated (the payload comes off a
 * websocket); other fields pass through untouched.
 */
export const DiscordMessagePayloadSchema = z.looseObject({
  id: z.string(),
  channel_id: z.string(),
  guild_id: z.string().optional(),
  content: z.string().optional(),
  author: z
    .looseObject({ id: z.string(), username: z.string().optional(), bot: z.boolean().optional() })
    .optional(),
  mentions: z.array(z.looseObject({ id: z.string() })).optional(),
  referenced_message: z
    .looseObject({ author: z.looseObject({ id: z.string() }).optional() })
    .nullish(),
  /** Files; the adapter downloads them (see `attachments.ts`), `toInbound` leaves them out. */
  attachments: z.unknown().optional(),
});
/** A validated MESSAGE_CREATE payload. */
export type DiscordMessagePayload = z.infer<typeof DiscordMessagePayloadSchema>;

/** What gating needs to know. */
export interface InboundGate {
  /** The bot's own user id, from READY; `undefined` until then. */
  readonly botId: string | undefined;
  readonly allowedChannels: readonly string[];
  /** Where a guild message's channel is (a thread or not); absent for DMs. */
  readonly place?: ChannelPlace;
}

/** Whether the message speaks to the bot: an @mention of it, or a reply to one of its messages. */
function addressesBot(message: DiscordMessagePayload, botId: string): boolean {
  if (message.mentions?.some((user) => user.id === botId)) return true;
  return message.referenced_message?.author?.id === botId;
}

/**
 * Normalizes `message`, or returns `undefined` when the bot should not answer it.
 *
 * @param receivedAt - When the adapter got it (epoch ms).
 */
export function toInbound(
  message: DiscordMessagePayload,
  gate: InboundGate,
  receivedAt: number,
): InboundMessage | undefined {
  const author = message.author;
  if (!author || author.bot || author.id === gate.botId) return undefined;
  const isDirect = message.guild_id === undefined;
  const thread = isDirect ? undefined : gate.place?.thread;
  if (!isDirect) {
    const allowed = gate.allowedChannels;
    const listed =
      allowed.includes(message.channel_id) || (thread && allowed.includes(thread.parentId));
    if (allowed.length > 0 && !listed) return undefined;
    if (gate.botId === undefined) return undefined;
    const botsThread = thread !== undefined && thread.ownerId === gate.botId;
    if (!botsThread && !addressesBot(message, gate.botId)) return undefined;
  }
  // The id comes from READY (outside input): escaped, so it can only ever match itself.
  const botId = gate.botId?.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const mention = botId ? new RegExp(`<@!?${botId}>`, 'g') : undefined;
  const text = (
    mention ? (message.content ?? '').replace(mention, '') : (message.content ?? '')
  ).trim();
  return {
    platform: 'discord',
    chatId: thread ? thread.parentId : message.channel_id,
    ...(thread ? { threadId: thread.id } : {}),
    userId: author.id,
    ...(author.username ? { userName: author.username } : {}),
    text,
    messageId: message.id,
    receivedAt,
    isDirect,
  };
}
