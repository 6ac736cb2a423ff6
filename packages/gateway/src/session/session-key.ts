/**
 * Session keys: which stored conversation a message belongs to. The platform is part of the key
 * (a Telegram chat and a Slack chat are two conversations, even for one person); what crosses
 * platforms is the profile's memory, not its transcripts.
 */
import type { InboundMessage } from '../messages.js';

/** The fields of a message that decide its session. */
export type SessionKeySource = Pick<
  InboundMessage,
  'platform' | 'chatId' | 'threadId' | 'userId' | 'isDirect'
>;

/** How sessions are scoped (`gateway.group_sessions_per_user`). */
export interface SessionKeyOptions {
  /** In group chats each member gets their own session. */
  readonly groupSessionsPerUser: boolean;
}

/** The kinds of chat a key names. */
export type ChatType = 'dm' | 'group' | 'thread';

const RESERVED = /[%:/]/g;
const ESCAPES: Readonly<Record<string, string>> = { '%': '%25', ':': '%3A', '/': '%2F' };

/**
 * Percent-escapes the characters that separate a key's parts, so no id can reach into the next
 * part: chat `a:b` of user `c` and chat `a` of user `b:c` stay two keys.
 */
function escapePart(value: string): string {
  return value.replace(RESERVED, (ch) => ESCAPES[ch] ?? ch);
}

/** The chat type of a message: a thread wins over a DM or group, so each thread is its own. */
export function chatTypeOf(message: Pick<SessionKeySource, 'threadId' | 'isDirect'>): ChatType {
  if (message.threadId !== undefined) return 'thread';
  return message.isDirect ? 'dm' : 'group';
}

/**
 * `agent:<profile>:<platform>:<chat_type>:<chat_id>[:<user_id>]`.
 *
 * - `dm`: one session per DM chat.
 * - `group`: one per member (`:<user_id>`), or one for the whole chat when
 *   `groupSessionsPerUser` is false.
 * - `thread`: chat id `<chatId>/<threadId>`, one session shared by everyone in the thread (a
 *   thread is one conversation, whoever writes in it).
 *
 * Every part is percent-escaped (`%` `:` `/`), so distinct chats never share a key.
 */
export function buildSessionKey(
  profile: string,
  message: SessionKeySource,
  options: SessionKeyOptions,
): string {
  const type = chatTypeOf(message);
  const chat =
    type === 'thread'
      ? `${escapePart(message.chatId)}/${escapePart(message.threadId ?? '')}`
      : escapePart(message.chatId);
  const key = `agent:${escapePart(profile)}:${escapePart(message.platform)}:${type}:${chat}`;
  return type === 'group' && options.groupSessionsPerUser
    ? `${key}:${escapePart(message.userId)}`
    : key;
}
