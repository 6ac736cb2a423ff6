/**
 * Redacted copies of the messages a summary is built from. Redaction runs on each whole message
 * before anything is clipped, quoted or scanned for anchors: clipping first can separate a label
 * from its value or cut a private key's end marker off, and scanning first indexes the raw key.
 */
import type { ChatMessage, ContentPart, MessageContent } from '@hermes/protocol';
import { redactSecrets } from './redact.js';

/** Every string inside a parsed JSON value, redacted. */
function redactJsonValue(value: unknown): unknown {
  if (typeof value === 'string') return redactSecrets(value);
  if (Array.isArray(value)) return value.map(redactJsonValue);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      // A value under a secret-like key is hidden whatever its shape.
      out[key] =
        typeof inner === 'string' && SECRET_KEY.test(key) && inner !== ''
          ? '[REDACTED]'
          : redactJsonValue(inner);
    }
    return out;
  }
  return value;
}

/** JSON keys whose string value is a credential by name. */
const SECRET_KEY =
  /(?:api[_-]?key|apikey|access[_-]?key|secret|token|password|passwd|passphrase|credentials?|signature|private[_-]?key)$/i;

/**
 * Tool-call arguments with secrets hidden. JSON is redacted value by value and re-serialized, so
 * the result stays valid JSON (redacting the raw text could swallow an escaped quote).
 */
export function redactJsonText(raw: string): string {
  try {
    return JSON.stringify(redactJsonValue(JSON.parse(raw)));
  } catch {
    return redactSecrets(raw);
  }
}

/** A message body with every text part redacted (images untouched). */
function redactContent(content: MessageContent): MessageContent {
  if (typeof content === 'string') return redactSecrets(content);
  return content.map(
    (part): ContentPart =>
      part.type === 'text' ? { ...part, text: redactSecrets(part.text) } : part,
  );
}

/** A copy of `message` with secrets hidden in its text and tool-call arguments. */
export function redactMessage(message: ChatMessage): ChatMessage {
  switch (message.role) {
    case 'system':
      return { ...message, content: redactSecrets(message.content) };
    case 'user':
    case 'tool':
      return { ...message, content: redactContent(message.content) };
    case 'assistant':
      return {
        ...message,
        content: message.content === null ? null : redactContent(message.content),
        ...(message.reasoning === undefined ? {} : { reasoning: redactSecrets(message.reasoning) }),
        ...(message.tool_calls === undefined
          ? {}
          : {
              tool_calls: message.tool_calls.map((call) => ({
                ...call,
                function: { ...call.function, arguments: redactJsonText(call.function.arguments) },
              })),
            }),
      };
  }
}
