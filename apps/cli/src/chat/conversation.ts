/** Small helpers over a conversation's messages (for `/undo`, `/retry`, `/context`). */
import type { ChatMessage, MessageContent } from '@hermes/protocol';

/** The text of a message's content (text parts joined; images left out). */
export function contentText(content: MessageContent | null): string {
  if (content === null) return '';
  if (typeof content === 'string') return content;
  return content
    .filter((part) => part.type === 'text')
    .map((part) => (part as { text: string }).text)
    .join('');
}

/** Rough token count: a quarter of the characters, the usual estimate for English text. */
export function estimateTokens(messages: readonly ChatMessage[]): number {
  let chars = 0;
  for (const message of messages) chars += JSON.stringify(message).length;
  return Math.ceil(chars / 4);
}

/** How many messages of each role. */
export function roleCounts(messages: readonly ChatMessage[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const message of messages) counts[message.role] = (counts[message.role] ?? 0) + 1;
  return counts;
}
