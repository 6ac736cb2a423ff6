/**
 * Drizzle table definitions of the SQLite session store: the typed shape of every row. The DDL
 * itself lives in `migrations.ts` (the FTS tables and triggers have no drizzle form); keep both in
 * step when adding a migration.
 */
import { integer, primaryKey, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** One row per session, with its counters. */
export const sessions = sqliteTable('sessions', {
  id: text('id').primaryKey(),
  source: text('source').notNull(),
  userId: text('user_id'),
  sessionKey: text('session_key'),
  chatId: text('chat_id'),
  threadId: text('thread_id'),
  title: text('title'),
  model: text('model'),
  provider: text('provider'),
  systemPromptHash: text('system_prompt_hash'),
  parentSessionId: text('parent_session_id'),
  startedAt: integer('started_at').notNull(),
  endedAt: integer('ended_at'),
  endReason: text('end_reason'),
  archived: integer('archived').notNull().default(0),
  compressionCooldownUntil: integer('compression_cooldown_until'),
  compressionFailureStreak: integer('compression_failure_streak').notNull().default(0),
  messageCount: integer('message_count').notNull().default(0),
  toolCallCount: integer('tool_call_count').notNull().default(0),
  apiCallCount: integer('api_call_count').notNull().default(0),
  inputTokens: integer('input_tokens').notNull().default(0),
  outputTokens: integer('output_tokens').notNull().default(0),
  cacheReadTokens: integer('cache_read_tokens').notNull().default(0),
  cacheWriteTokens: integer('cache_write_tokens').notNull().default(0),
  reasoningTokens: integer('reasoning_tokens').notNull().default(0),
  estimatedCostUsd: real('estimated_cost_usd').notNull().default(0),
  compressionCount: integer('compression_count').notNull().default(0),
});

/** One row per message; `extra` holds message keys without a column of their own (JSON). */
export const messages = sqliteTable('messages', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  sessionId: text('session_id').notNull(),
  role: text('role').notNull(),
  content: text('content'),
  contentIsJson: integer('content_is_json').notNull().default(0),
  toolCalls: text('tool_calls'),
  toolCallId: text('tool_call_id'),
  toolName: text('tool_name'),
  reasoning: text('reasoning'),
  reasoningDetails: text('reasoning_details'),
  apiContent: text('api_content'),
  finishReason: text('finish_reason'),
  tokenCount: integer('token_count'),
  createdAt: integer('created_at').notNull(),
  active: integer('active').notNull().default(1),
  compacted: integer('compacted').notNull().default(0),
  platformMessageId: text('platform_message_id'),
  extra: text('extra'),
});

/** System prompts by hash, so a resumed session restores the exact prompt. */
export const systemPrompts = sqliteTable('system_prompts', {
  hash: text('hash').primaryKey(),
  text: text('text').notNull(),
  createdAt: integer('created_at').notNull(),
});

/** Small key-value state of subsystems (credential pool, cooldowns, routing); values are JSON. */
export const kv = sqliteTable(
  'kv',
  {
    namespace: text('namespace').notNull(),
    key: text('key').notNull(),
    value: text('value').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.namespace, t.key] })],
);

/** A `sessions` row as read. */
export type SessionRow = typeof sessions.$inferSelect;
/** A `messages` row as read. */
export type MessageRow = typeof messages.$inferSelect;
