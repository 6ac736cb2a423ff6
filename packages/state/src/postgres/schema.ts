/**
 * Drizzle table definitions of the PostgreSQL session store: the typed shape of every row. The
 * DDL lives in `migrations.ts` (the generated `search_tsv` column and the GIN indexes have no
 * drizzle form there); keep both in step when adding a migration.
 */
import {
  bigint,
  bigserial,
  boolean,
  doublePrecision,
  integer,
  pgTable,
  primaryKey,
  text,
} from 'drizzle-orm/pg-core';

const epochMs = (name: string) => bigint(name, { mode: 'number' });

/** One row per session, with its counters. `seq` orders sessions created in the same ms. */
export const sessions = pgTable('sessions', {
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
  startedAt: epochMs('started_at').notNull(),
  endedAt: epochMs('ended_at'),
  endReason: text('end_reason'),
  archived: boolean('archived').notNull().default(false),
  compressionCooldownUntil: epochMs('compression_cooldown_until'),
  compressionFailureStreak: integer('compression_failure_streak').notNull().default(0),
  messageCount: epochMs('message_count').notNull().default(0),
  toolCallCount: epochMs('tool_call_count').notNull().default(0),
  apiCallCount: epochMs('api_call_count').notNull().default(0),
  inputTokens: epochMs('input_tokens').notNull().default(0),
  outputTokens: epochMs('output_tokens').notNull().default(0),
  cacheReadTokens: epochMs('cache_read_tokens').notNull().default(0),
  cacheWriteTokens: epochMs('cache_write_tokens').notNull().default(0),
  reasoningTokens: epochMs('reasoning_tokens').notNull().default(0),
  estimatedCostUsd: doublePrecision('estimated_cost_usd').notNull().default(0),
  compressionCount: epochMs('compression_count').notNull().default(0),
  seq: bigserial('seq', { mode: 'number' }).notNull(),
});

/** One row per message; `extra` holds message keys without a column of their own (JSON). */
export const messages = pgTable('messages', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  sessionId: text('session_id').notNull(),
  role: text('role').notNull(),
  content: text('content'),
  contentIsJson: boolean('content_is_json').notNull().default(false),
  toolCalls: text('tool_calls'),
  toolCallId: text('tool_call_id'),
  toolName: text('tool_name'),
  reasoning: text('reasoning'),
  reasoningDetails: text('reasoning_details'),
  apiContent: text('api_content'),
  finishReason: text('finish_reason'),
  tokenCount: integer('token_count'),
  createdAt: epochMs('created_at').notNull(),
  active: boolean('active').notNull().default(true),
  compacted: boolean('compacted').notNull().default(false),
  platformMessageId: text('platform_message_id'),
  extra: text('extra'),
  searchText: text('search_text').notNull().default(''),
  searchArgs: text('search_args').notNull().default(''),
});

/** System prompts by hash, so a resumed session restores the exact prompt. */
export const systemPrompts = pgTable('system_prompts', {
  hash: text('hash').primaryKey(),
  text: text('text').notNull(),
  createdAt: epochMs('created_at').notNull(),
});

/** Small key-value state of subsystems; values are JSON text. */
export const kv = pgTable(
  'kv',
  {
    namespace: text('namespace').notNull(),
    key: text('key').notNull(),
    value: text('value').notNull(),
    updatedAt: epochMs('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.namespace, t.key] })],
);

/** A `sessions` row as read. */
export type PgSessionRow = typeof sessions.$inferSelect;
/** A `messages` row as read. */
export type PgMessageRow = typeof messages.$inferSelect;
/** A `messages` row to insert. */
export type PgMessageInsert = typeof messages.$inferInsert;
