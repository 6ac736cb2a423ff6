/**
 * Conversion between store records and SQLite rows. Rows read back are validated with the seam's
 * zod schemas, because the file may have been written by another build.
 */
import type { ChatMessage } from '@hermes/protocol';
import { getTableColumns } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import { type SessionRecord, SessionRecordSchema } from '../session-record.js';
import {
  type AppendMessageInput,
  type StoredMessage,
  StoredMessageSchema,
} from '../stored-message.js';
import type { MessageRow, SessionRow } from './schema.js';

/** `SELECT` list naming every column of `table` by its drizzle (camelCase) key. */
export function selectList(table: SQLiteTable): string {
  return Object.entries(getTableColumns(table))
    .map(([key, column]) => `${column.name} AS "${key}"`)
    .join(', ');
}

/** Named parameters of the message insert statement. */
export interface MessageParams {
  session_id: string;
  role: string;
  content: string | null;
  content_is_json: number;
  tool_calls: string | null;
  tool_call_id: string | null;
  tool_name: string | null;
  reasoning: string | null;
  reasoning_details: string | null;
  api_content: string | null;
  finish_reason: string | null;
  token_count: number | null;
  created_at: number;
  platform_message_id: string | null;
  extra: string | null;
}

/** Message keys with a column of their own; everything else goes to `extra`. */
const COLUMN_KEYS = new Set([
  'role',
  'content',
  'tool_calls',
  'tool_call_id',
  'reasoning',
  'reasoning_details',
]);

function json(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}

/**
 * The insert parameters of one message. `name` is the `tool_name` column only for tool rows (so
 * full-text search sees the tool), otherwise it travels in `extra` with other uncolumned keys.
 * `api_content` is always JSON-encoded so a string and a part list come back as what they were.
 */
export function messageParams(
  sessionId: string,
  input: AppendMessageInput,
  now: number,
): MessageParams {
  const message = input.message as Readonly<Record<string, unknown>> & ChatMessage;
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(message)) {
    if (COLUMN_KEYS.has(key) || (key === 'name' && message.role === 'tool')) continue;
    if (value !== undefined) extra[key] = value;
  }
  const content = message.content;
  return {
    session_id: sessionId,
    role: message.role,
    content: typeof content === 'string' || content === null ? content : JSON.stringify(content),
    content_is_json: typeof content === 'string' || content === null ? 0 : 1,
    tool_calls: json(message.role === 'assistant' ? message.tool_calls : undefined),
    tool_call_id: message.role === 'tool' ? message.tool_call_id : null,
    tool_name: message.role === 'tool' ? (message.name ?? null) : null,
    reasoning: message.role === 'assistant' ? (message.reasoning ?? null) : null,
    reasoning_details: json(message.role === 'assistant' ? message.reasoning_details : undefined),
    api_content: json(input.apiContent),
    finish_reason: input.finishReason ?? null,
    token_count: input.tokenCount ?? null,
    created_at: input.createdAt ?? now,
    platform_message_id: input.platformMessageId ?? null,
    extra: Object.keys(extra).length > 0 ? JSON.stringify(extra) : null,
  };
}

/** Tool calls inside a message (counted into `counters.toolCalls`). */
export function toolCallCount(message: ChatMessage): number {
  return message.role === 'assistant' ? (message.tool_calls?.length ?? 0) : 0;
}

function rowMessage(row: MessageRow): Record<string, unknown> {
  const message: Record<string, unknown> = {
    role: row.role,
    content:
      row.content !== null && row.contentIsJson === 1 ? JSON.parse(row.content) : row.content,
  };
  if (row.toolCalls !== null) message.tool_calls = JSON.parse(row.toolCalls);
  if (row.toolCallId !== null) message.tool_call_id = row.toolCallId;
  if (row.toolName !== null) message.name = row.toolName;
  if (row.reasoning !== null) message.reasoning = row.reasoning;
  if (row.reasoningDetails !== null) message.reasoning_details = JSON.parse(row.reasoningDetails);
  if (row.extra !== null) Object.assign(message, JSON.parse(row.extra));
  return message;
}

/** A `messages` row as the seam's record. */
export function toStoredMessage(row: MessageRow): StoredMessage {
  return StoredMessageSchema.parse({
    id: row.id,
    sessionId: row.sessionId,
    message: rowMessage(row),
    apiContent: row.apiContent === null ? null : JSON.parse(row.apiContent),
    finishReason: row.finishReason,
    tokenCount: row.tokenCount,
    platformMessageId: row.platformMessageId,
    createdAt: row.createdAt,
    active: row.active === 1,
    compacted: row.compacted === 1,
  });
}

/** A `sessions` row as the seam's record. */
export function toSessionRecord(row: SessionRow): SessionRecord {
  return SessionRecordSchema.parse({
    id: row.id,
    source: row.source,
    userId: row.userId,
    sessionKey: row.sessionKey,
    chatId: row.chatId,
    threadId: row.threadId,
    title: row.title,
    model: row.model,
    provider: row.provider,
    systemPromptHash: row.systemPromptHash,
    parentSessionId: row.parentSessionId,
    startedAt: row.startedAt,
    endedAt: row.endedAt,
    endReason: row.endReason,
    archived: row.archived === 1,
    compressionCooldownUntil: row.compressionCooldownUntil,
    compressionFailureStreak: row.compressionFailureStreak,
    counters: {
      inputTokens: row.inputTokens,
      outputTokens: row.outputTokens,
      cacheReadTokens: row.cacheReadTokens,
      cacheWriteTokens: row.cacheWriteTokens,
      reasoningTokens: row.reasoningTokens,
      messages: row.messageCount,
      toolCalls: row.toolCallCount,
      apiCalls: row.apiCallCount,
      estimatedCostUsd: row.estimatedCostUsd,
      compressions: row.compressionCount,
    },
  });
}
