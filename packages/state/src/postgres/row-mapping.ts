/**
 * Conversion between store records and PostgreSQL rows. The message encoding is the SQLite
 * store's (`../sqlite/row-mapping.ts`: which keys get columns, JSON text for the rest), reused
 * so both backends store and return a message identically; this module adds what PostgreSQL
 * needs on top: NUL escaping, booleans, and the search columns computed on write.
 */
import type { SessionRecord } from '../session-record.js';
import { messageParams, toSessionRecord, toStoredMessage } from '../sqlite/row-mapping.js';
import type { AppendMessageInput, StoredMessage } from '../stored-message.js';
import { escapeNul, escapeNullable, unescapeNullable } from './nul-escape.js';
import type { PgMessageInsert, PgMessageRow, PgSessionRow } from './schema.js';
import { searchArgs, searchText } from './search-text.js';

/** The insert values of one message (everything but the id). */
export function messageInsert(
  sessionId: string,
  input: AppendMessageInput,
  now: number,
): PgMessageInsert {
  const p = messageParams(sessionId, input, now);
  return {
    sessionId: p.session_id,
    role: p.role,
    content: escapeNullable(p.content),
    contentIsJson: p.content_is_json === 1,
    toolCalls: p.tool_calls,
    toolCallId: escapeNullable(p.tool_call_id),
    toolName: escapeNullable(p.tool_name),
    reasoning: escapeNullable(p.reasoning),
    reasoningDetails: p.reasoning_details,
    apiContent: p.api_content,
    finishReason: escapeNullable(p.finish_reason),
    tokenCount: p.token_count,
    createdAt: p.created_at,
    platformMessageId: escapeNullable(p.platform_message_id),
    extra: p.extra,
    searchText: escapeNul(searchText(p.content, p.content_is_json === 1, p.tool_name)),
    searchArgs: escapeNul(searchArgs(p.tool_calls)),
  };
}

/** A `messages` row as the seam's record. */
export function toStoredMessagePg(row: PgMessageRow): StoredMessage {
  return toStoredMessage({
    ...row,
    content: unescapeNullable(row.content),
    contentIsJson: row.contentIsJson ? 1 : 0,
    toolCallId: unescapeNullable(row.toolCallId),
    toolName: unescapeNullable(row.toolName),
    reasoning: unescapeNullable(row.reasoning),
    finishReason: unescapeNullable(row.finishReason),
    platformMessageId: unescapeNullable(row.platformMessageId),
    active: row.active ? 1 : 0,
    compacted: row.compacted ? 1 : 0,
  });
}

/** Free-text session fields (ids and the source are keys, written as given). */
const SESSION_TEXT_KEYS = [
  'userId',
  'sessionKey',
  'chatId',
  'threadId',
  'title',
  'model',
  'provider',
  'systemPromptHash',
  'endReason',
] as const;

/** A `sessions` row as the seam's record. */
export function toSessionRecordPg(row: PgSessionRow): SessionRecord {
  const decoded: Record<string, unknown> = { ...row, archived: row.archived ? 1 : 0 };
  for (const key of SESSION_TEXT_KEYS) decoded[key] = unescapeNullable(row[key]);
  return toSessionRecord(decoded as Parameters<typeof toSessionRecord>[0]);
}

/** Escapes the free-text fields of a session insert or patch (text refuses U+0000). */
export function escapeSessionText<T extends Record<string, unknown>>(values: T): T {
  const out: Record<string, unknown> = { ...values };
  for (const key of SESSION_TEXT_KEYS) {
    const value = out[key];
    if (typeof value === 'string') out[key] = escapeNul(value);
  }
  return out as T;
}
