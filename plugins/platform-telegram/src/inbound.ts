/** One Telegram update → the gateway's `InboundMessage`, or nothing (group gating, non-text). */
import type { InboundMessage } from '@hermes/plugin-sdk';
import type { Message, Update } from 'grammy/types';
import { fileRefs } from './attachments.js';

/** Who the bot is, from `getMe`. */
export interface BotIdentity {
  readonly id: number;
  readonly username: string;
}

function isMentioned(message: Message, text: string, bot: BotIdentity): boolean {
  const mention = `@${bot.username}`.toLowerCase();
  const entities = message.entities ?? message.caption_entities ?? [];
  for (const entity of entities) {
    const word = text.slice(entity.offset, entity.offset + entity.length).toLowerCase();
    if (entity.type === 'mention' && word === mention) return true;
    if (entity.type === 'text_mention' && entity.user?.id === bot.id) return true;
    if (entity.type === 'bot_command' && word.endsWith(mention)) return true;
  }
  return text.toLowerCase().includes(mention);
}

/**
 * Normalizes a message update. In a group the bot answers only when it is mentioned
 * (`@name`, a `/command@name`) or when the message replies to one of its own; the mention is
 * removed from the text. A message from a bot, or with no text or caption, is dropped.
 */
export function toInbound(
  update: Update,
  bot: BotIdentity,
  now: number,
): InboundMessage | undefined {
  const message = update.message;
  if (!message?.from || message.from.is_bot) return undefined;
  const text = message.text ?? message.caption ?? '';
  if (text === '' && fileRefs(message).length === 0) return undefined;
  const isDirect = message.chat.type === 'private';
  let body = text;
  if (!isDirect) {
    const repliedToBot = message.reply_to_message?.from?.id === bot.id;
    if (!repliedToBot && !isMentioned(message, text, bot)) return undefined;
    body = text.replace(new RegExp(`(^|\\s)@${bot.username}\\b`, 'gi'), '$1').trim();
    body = body.replace(new RegExp(`^(/\\w+)@${bot.username}\\b`, 'i'), '$1');
  }
  const userName = message.from.username ?? message.from.first_name;
  return {
    platform: 'telegram',
    chatId: String(message.chat.id),
    ...(message.is_topic_message && message.message_thread_id !== undefined
      ? { threadId: String(message.message_thread_id) }
      : {}),
    userId: String(message.from.id),
    ...(userName ? { userName } : {}),
    text: body,
    messageId: String(message.message_id),
    receivedAt: now,
    isDirect,
  };
}
