/**
 * The session store's tables in PostgreSQL, as hand-written migration steps applied by
 * `PostgresDatabase.migrate('state', …)` (once per database, under an advisory lock).
 *
 * Shape follows the SQLite store (`../sqlite/migrations.ts`) so rows map one to one:
 * - JSON columns (`tool_calls`, `extra`, …) are `TEXT` holding JSON, not `jsonb`: `jsonb` rejects
 *   `\u0000`, and the text is read back exactly as written.
 * - Text columns never hold U+0000 (PostgreSQL refuses it); `nul-escape.ts` encodes it.
 * - Search: `search_text` (message text and tool name) and `search_args` (tool-call arguments)
 *   are computed on write; `search_tsv` is generated from them with the `simple` configuration
 *   (no stemming, no stop words, like FTS5's unicode61) and GIN-indexed; a `pg_trgm` GIN index on
 *   their concatenation serves substring and CJK search.
 * - `sessions.parent_session_id` has no foreign key on purpose (as in SQLite): lineage may point
 *   at a pruned ancestor, and imports may bring children before parents.
 */
import type { PostgresMigration } from './database.js';

/** The expression the trigram index covers; search queries must spell it the same way. */
export const TRIGRAM_TEXT_SQL = "(m.search_text || ' ' || m.search_args)";

const INITIAL = `
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;
CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  source TEXT NOT NULL,
  user_id TEXT, session_key TEXT, chat_id TEXT, thread_id TEXT, title TEXT,
  model TEXT, provider TEXT, system_prompt_hash TEXT,
  parent_session_id TEXT,
  started_at BIGINT NOT NULL, ended_at BIGINT, end_reason TEXT,
  archived BOOLEAN NOT NULL DEFAULT false,
  compression_cooldown_until BIGINT,
  compression_failure_streak INTEGER NOT NULL DEFAULT 0,
  message_count BIGINT NOT NULL DEFAULT 0,
  tool_call_count BIGINT NOT NULL DEFAULT 0,
  api_call_count BIGINT NOT NULL DEFAULT 0,
  input_tokens BIGINT NOT NULL DEFAULT 0,
  output_tokens BIGINT NOT NULL DEFAULT 0,
  cache_read_tokens BIGINT NOT NULL DEFAULT 0,
  cache_write_tokens BIGINT NOT NULL DEFAULT 0,
  reasoning_tokens BIGINT NOT NULL DEFAULT 0,
  estimated_cost_usd DOUBLE PRECISION NOT NULL DEFAULT 0,
  compression_count BIGINT NOT NULL DEFAULT 0,
  seq BIGSERIAL NOT NULL
);
CREATE INDEX sessions_started ON sessions (started_at);
CREATE INDEX sessions_parent ON sessions (parent_session_id);
CREATE INDEX sessions_key ON sessions (session_key);
CREATE TABLE messages (
  id BIGSERIAL PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  role TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant', 'tool')),
  content TEXT,
  content_is_json BOOLEAN NOT NULL DEFAULT false,
  tool_calls TEXT, tool_call_id TEXT, tool_name TEXT,
  reasoning TEXT, reasoning_details TEXT, api_content TEXT,
  finish_reason TEXT, token_count INTEGER,
  created_at BIGINT NOT NULL,
  active BOOLEAN NOT NULL DEFAULT true,
  compacted BOOLEAN NOT NULL DEFAULT false,
  platform_message_id TEXT,
  extra TEXT,
  search_text TEXT NOT NULL DEFAULT '',
  search_args TEXT NOT NULL DEFAULT '',
  search_tsv tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('simple'::regconfig, search_text), 'A') ||
    setweight(to_tsvector('simple'::regconfig, search_args), 'B')
  ) STORED
);
CREATE INDEX messages_session_active ON messages (session_id, active, id);
CREATE INDEX messages_search_tsv ON messages USING gin (search_tsv);
CREATE INDEX messages_search_trgm ON messages
  USING gin ((search_text || ' ' || search_args) public.gin_trgm_ops);
CREATE TABLE system_prompts (hash TEXT PRIMARY KEY, text TEXT NOT NULL, created_at BIGINT NOT NULL);
CREATE TABLE kv (
  namespace TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, updated_at BIGINT NOT NULL,
  PRIMARY KEY (namespace, key)
);
`;

/** Every migration, oldest first. Never edit a released one; append a new version instead. */
export const POSTGRES_SESSION_MIGRATIONS: readonly PostgresMigration[] = [
  { version: 1, name: 'sessions, messages, text search and trigram indexes', sql: INITIAL },
];
