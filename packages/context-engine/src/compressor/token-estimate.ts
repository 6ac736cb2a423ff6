/**
 * A fast rough token estimator: characters / 4, a fixed overhead per message, a fixed cost per
 * image, and the size of the tool schemas. It walks the strings without serializing, so 1 MB
 * of messages costs about a millisecond. Real usage from the provider replaces it when known.
 */
import type { ChatMessage, MessageContent, ToolSchema } from '@hermes/protocol';

/** Characters per token of the rough estimate. */
export const CHARS_PER_TOKEN = 4;
/** Tokens a message costs beyond its text (role, separators). */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** Tokens an image part is assumed to cost, whatever its URL length. */
export const IMAGE_TOKENS = 800;

/** Characters of text in a message body; images are counted separately. */
function contentChars(content: MessageContent | null): number {
  if (content === null) return 0;
  if (typeof content === 'string') return content.length;
  let chars = 0;
  for (const part of content) if (part.type === 'text') chars += part.text.length;
  return chars;
}

/** Image parts in a message body. */
export function countImages(content: MessageContent | null): number {
  if (content === null || typeof content === 'string') return 0;
  let images = 0;
  for (const part of content) if (part.type === 'image_url') images++;
  return images;
}

/** Characters of a message that count toward the estimate (text, tool calls, reasoning). */
export function messageChars(message: ChatMessage): number {
  let chars = contentChars(message.content);
  if (message.role === 'assistant') {
    for (const call of message.tool_calls ?? []) {
      chars += call.id.length + call.function.name.length + call.function.arguments.length;
    }
    chars += message.reasoning?.length ?? 0;
  } else if (message.role === 'tool') {
    chars += message.tool_call_id.length;
  }
  return chars;
}

/** Rough tokens of one message. */
export function estimateMessageTokens(message: ChatMessage): number {
  const images = message.role === 'system' ? 0 : countImages(message.content);
  return (
    Math.ceil(messageChars(message) / CHARS_PER_TOKEN) +
    MESSAGE_OVERHEAD_TOKENS +
    images * IMAGE_TOKENS
  );
}

/** Rough tokens of tool schemas as sent with a request. */
export function estimateToolSchemaTokens(tools: readonly ToolSchema[] = []): number {
  if (tools.length === 0) return 0;
  return Math.ceil(JSON.stringify(tools).length / CHARS_PER_TOKEN);
}

/** Rough tokens of a whole request: every message plus the tool schemas. */
export function estimateTokens(
  messages: readonly ChatMessage[],
  tools: readonly ToolSchema[] = [],
): number {
  let chars = 0;
  let images = 0;
  for (const message of messages) {
    chars += messageChars(message);
    if (message.role !== 'system') images += countImages(message.content);
  }
  return (
    Math.ceil(chars / CHARS_PER_TOKEN) +
    messages.length * MESSAGE_OVERHEAD_TOKENS +
    images * IMAGE_TOKENS +
    estimateToolSchemaTokens(tools)
  );
}
