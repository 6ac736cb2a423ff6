/**
 * Stored sessions and messages as the MCP tools return them: snake_case keys, ISO times, message
 * bodies as plain text (images described, never their bytes) and cut to a size a client can
 * take in one response.
 */
import type { ChatMessage } from '@hermes/protocol';
import type { z } from 'zod';
import type { SessionMessage, SessionSearchHit, SessionSummary } from './server-deps.js';
import type {
  SessionReadOutput,
  SessionsListOutput,
  SessionsSearchOutput,
} from './tool-schemas.js';

/**
 * Longest message body returned by `session_read`. Tool outputs stored in a session can be far
 * larger; a reader that needs everything can export the session with `hermes sessions export`.
 */
export const MAX_MESSAGE_CHARS = 20_000;

type ListedSession = z.output<typeof SessionsListOutput>['sessions'][number];
type ReadMessage = z.output<typeof SessionReadOutput>['messages'][number];
type Hit = z.output<typeof SessionsSearchOutput>['hits'][number];

/** Milliseconds since the epoch as ISO 8601. */
function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** A listed session. */
export function listedSession(session: SessionSummary): ListedSession {
  return {
    id: session.id,
    title: session.title,
    platform: session.platform,
    started: iso(session.startedAt),
    ended: session.endedAt === null ? null : iso(session.endedAt),
    message_count: session.messageCount,
  };
}

/** A search hit. */
export function searchHit(hit: SessionSearchHit): Hit {
  return {
    session_id: hit.sessionId,
    message_id: hit.messageId,
    role: hit.role,
    snippet: hit.snippet,
    created: iso(hit.createdAt),
  };
}

/** A message body as text: text parts in order, each image as a short description. */
export function messageText(message: ChatMessage): string {
  const content = message.content;
  if (content === null) return '';
  if (typeof content === 'string') return cut(content);
  const parts = content.map((part) =>
    part.type === 'text' ? part.text : `[image${imageKind(part.image_url.url)}]`,
  );
  return cut(parts.join('\n'));
}

/** ` (image/png, inline)` for a data URL, ` <url>` for a web one. */
function imageKind(url: string): string {
  const data = /^data:([^;,]+)/.exec(url);
  if (data) return ` ${data[1]}, inline`;
  return url.startsWith('data:') ? ' inline' : ` ${url}`;
}

function cut(text: string): string {
  if (text.length <= MAX_MESSAGE_CHARS) return text;
  const more = text.length - MAX_MESSAGE_CHARS;
  return `${text.slice(0, MAX_MESSAGE_CHARS)}\n[… ${more} more characters not shown]`;
}

/** A message of `session_read`. */
export function readMessage(stored: SessionMessage): ReadMessage {
  const { message } = stored;
  const base: ReadMessage = {
    id: stored.id,
    role: message.role,
    content: messageText(message),
    created: iso(stored.createdAt),
  };
  if (message.role === 'assistant' && message.tool_calls?.length) {
    const calls = message.tool_calls.map((call) => ({
      name: call.function.name,
      arguments: call.function.arguments,
    }));
    return { ...base, tool_calls: calls };
  }
  if (message.role === 'tool' && message.name) return { ...base, tool_name: message.name };
  return base;
}

/** One page of a session's messages. */
export function sessionPage(
  sessionId: string,
  messages: readonly SessionMessage[],
  offset: number,
  limit: number,
): z.output<typeof SessionReadOutput> {
  const page = messages.slice(offset, offset + limit);
  const end = offset + page.length;
  return {
    session_id: sessionId,
    total: messages.length,
    offset,
    messages: page.map(readMessage),
    next_offset: end < messages.length ? end : null,
  };
}
