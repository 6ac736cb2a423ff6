/** Plain-text views of messages for transcripts, appendices and anchor scanning. */
import type { ChatMessage, MessageContent } from '@hermes/protocol';

/** The text of a message body; images become `[image]`. */
export function contentText(content: MessageContent | null): string {
  if (content === null) return '';
  if (typeof content === 'string') return content;
  return content.map((p) => (p.type === 'text' ? p.text : '[image]')).join('\n');
}

/** Head and tail of `text` when it is longer than `max` characters. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const half = Math.floor(max / 2);
  const dropped = text.length - 2 * half;
  return `${text.slice(0, half)}\n…[${dropped} chars omitted]…\n${text.slice(-half)}`;
}

/** One line of at most `max` characters. */
export function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** A message as transcript text: role, body, and tool calls with their arguments. */
export function transcriptEntry(message: ChatMessage, maxChars: number): string {
  const body = clip(contentText(message.content), maxChars);
  if (message.role === 'tool') {
    return `TOOL RESULT (${message.name ?? 'tool'}, ${message.tool_call_id}):\n${body}`;
  }
  if (message.role !== 'assistant' || !message.tool_calls?.length) {
    return `${message.role.toUpperCase()}:\n${body}`;
  }
  const calls = message.tool_calls
    .map((c) => `-> ${c.function.name}(${clip(c.function.arguments, 1_500)}) [${c.id}]`)
    .join('\n');
  return `ASSISTANT:\n${body ? `${body}\n` : ''}${calls}`;
}
