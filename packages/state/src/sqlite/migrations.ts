/**
 * Versioned schema migrations of the SQLite session store, tracked in `PRAGMA user_version`.
 *
 * Full-text decision (read by the search module): appended rows are indexed in batches behind a
 * watermark (see {@link FTS_WATERMARK_SQL}); updates and deletes are kept in sync by triggers. Columns of `messages_fts` (unicode61) and `messages_trigram` (trigram) are:
 * - `content`: the message text. Plain `messages.content` when `content_is_json = 0`; when the
 *   content is a JSON array of parts, the `text` of its `type = 'text'` parts joined by spaces.
 * - `tool_name`: `messages.tool_name` (the tool of a `tool` row).
 * - `tool_args`: the `function.arguments` strings of the row's `tool_calls` JSON, joined by
 *   spaces, computed in the trigger with `json_each` (no extra column on `messages`).
 * Both tables use `rowid = messages.id`. Only rows holding non-ASCII text enter `messages_trigram`:
 * the trigram index exists for scripts without spaces between words (CJK), whose substrings
 * unicode61 cannot find, and indexing every ASCII row there would triple the cost of an append.
 * ASCII word fragments are found through prefix queries and LIKE instead. When the trigram
 * tokenizer is missing, `messages_trigram`
 * is a plain table with the same columns and kv ('state','trigram') is `false`, so search falls
 * back to LIKE.
 *
 * `sessions.parent_session_id` has no foreign key on purpose: lineage may point at a pruned or
 * deleted ancestor, or at a session in another database.
 */

/** One schema step. */
export interface Migration {
  /** The `user_version` after this step. */
  readonly version: number;
  readonly name: string;
  /** SQL statements run in order inside one IMMEDIATE transaction. */
  readonly up: readonly string[];
}

/** Text of a `messages` row as the FTS tables index it (see the header). */
function ftsContent(row: string): string {
  return `CASE WHEN ${row}.content_is_json = 1 THEN (SELECT group_concat(json_extract(p.value, '$.text'), ' ') FROM json_each(${row}.content) AS p WHERE json_extract(p.value, '$.type') = 'text') ELSE ${row}.content END`;
}

function ftsToolArgs(row: string): string {
  // The CASE skips the json_each subquery for the many rows without tool calls (it is costly).
  return `CASE WHEN ${row}.tool_calls IS NULL THEN NULL ELSE (SELECT group_concat(json_extract(c.value, '$.function.arguments'), ' ') FROM json_each(${row}.tool_calls) AS c) END`;
}

function ftsInsert(table: string): string {
  return `INSERT INTO ${table}(rowid, content, tool_name, tool_args) VALUES (new.id, ${ftsContent('new')}, new.tool_name, ${ftsToolArgs('new')});`;
}

/**
 * The id through which messages are in the FTS tables. Appends do not index in their own
 * transaction: FTS5 writes a segment at every commit, which tripled the cost of a small append.
 * The backlog above this mark is indexed in batches (see fts-index.ts): every
 * `FTS_BATCH_ROWS` appended rows, before every search, and on close. Updates of rows at or below
 * the mark re-index them here; rows above it are indexed later with their current text.
 */
export const FTS_WATERMARK_SQL =
  "COALESCE((SELECT CAST(value AS INTEGER) FROM kv WHERE namespace = 'state' AND key = 'fts_indexed_through'), 0)";

/** Indexes the messages with ids in (@from, @to] into `table` (the trigram one: non-ASCII rows only). */
export function backlogInsertSql(table: 'messages_fts' | 'messages_trigram'): string {
  const where = table === 'messages_trigram' ? ` AND ${hasNonAscii('m')}` : '';
  return `INSERT INTO ${table}(rowid, content, tool_name, tool_args)
    SELECT m.id, ${ftsContent('m')}, m.tool_name, ${ftsToolArgs('m')} FROM messages m
    WHERE m.id > @from AND m.id <= @to${where}`;
}

/** Indexes the new row in `messages_trigram` only when it holds non-ASCII text (see the header). */
function trigramInsert(): string {
  return `INSERT INTO messages_trigram(rowid, content, tool_name, tool_args) SELECT new.id, ${ftsContent('new')}, new.tool_name, ${ftsToolArgs('new')} WHERE ${hasNonAscii('new')};`;
}

/** The trigram table; replaced by {@link TRIGRAM_FALLBACK_SQL} when the tokenizer is missing. */
export const TRIGRAM_TABLE_SQL =
  "CREATE VIRTUAL TABLE messages_trigram USING fts5(content, tool_name, tool_args, tokenize='trigram')";

/** A plain table with the trigram table's shape, for SQLite builds without the tokenizer. */
export const TRIGRAM_FALLBACK_SQL =
  'CREATE TABLE messages_trigram (rowid INTEGER PRIMARY KEY, content TEXT, tool_name TEXT, tool_args TEXT)';

/** True when the row has any character outside ASCII (GLOB on a negated code-point range). */
function hasNonAscii(row: string): string {
  return `(COALESCE(${row}.content, '') || COALESCE(${row}.tool_name, '') || COALESCE(${row}.tool_calls, '')) GLOB '*[^' || char(1) || '-' || char(127) || ']*'`;
}

const CREATE_TABLES = [
  `CREATE TABLE sessions (
    id TEXT PRIMARY KEY NOT NULL,
    source TEXT NOT NULL,
    user_id TEXT, session_key TEXT, chat_id TEXT, thread_id TEXT, title TEXT,
    model TEXT, provider TEXT, system_prompt_hash TEXT,
    parent_session_id TEXT,
    started_at INTEGER NOT NULL, ended_at INTEGER, end_reason TEXT,
    archived INTEGER NOT NULL DEFAULT 0,
    compression_cooldown_until INTEGER,
    compression_failure_streak INTEGER NOT NULL DEFAULT 0,
    message_count INTEGER NOT NULL DEFAULT 0,
    tool_call_count INTEGER NOT NULL DEFAULT 0,
    api_call_count INTEGER NOT NULL DEFAULT 0,
    input_tokens INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    cache_read_tokens INTEGER NOT NULL DEFAULT 0,
    cache_write_tokens INTEGER NOT NULL DEFAULT 0,
    reasoning_tokens INTEGER NOT NULL DEFAULT 0,
    estimated_cost_usd REAL NOT NULL DEFAULT 0,
    compression_count INTEGER NOT NULL DEFAULT 0
  )`,
  'CREATE INDEX sessions_started ON sessions(started_at)',
  'CREATE INDEX sessions_parent ON sessions(parent_session_id)',
  'CREATE INDEX sessions_key ON sessions(session_key)',
  `CREATE TABLE messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    role TEXT NOT NULL CHECK (role IN ('system','user','assistant','tool')),
    content TEXT,
    content_is_json INTEGER NOT NULL DEFAULT 0,
    tool_calls TEXT, tool_call_id TEXT, tool_name TEXT,
    reasoning TEXT, reasoning_details TEXT, api_content TEXT,
    finish_reason TEXT, token_count INTEGER,
    created_at INTEGER NOT NULL,
    active INTEGER NOT NULL DEFAULT 1,
    compacted INTEGER NOT NULL DEFAULT 0,
    platform_message_id TEXT,
    extra TEXT
  )`,
  'CREATE INDEX messages_session_active ON messages(session_id, active, id)',
  'CREATE TABLE system_prompts (hash TEXT PRIMARY KEY NOT NULL, text TEXT NOT NULL, created_at INTEGER NOT NULL)',
  `CREATE TABLE kv (
    namespace TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, updated_at INTEGER NOT NULL,
    PRIMARY KEY (namespace, key)
  )`,
];

const CREATE_FTS = [
  "CREATE VIRTUAL TABLE messages_fts USING fts5(content, tool_name, tool_args, tokenize='unicode61 remove_diacritics 2')",
  TRIGRAM_TABLE_SQL,
  `CREATE TRIGGER messages_ad AFTER DELETE ON messages BEGIN
    DELETE FROM messages_fts WHERE rowid = old.id;
    DELETE FROM messages_trigram WHERE rowid = old.id;
  END`,
  `CREATE TRIGGER messages_au AFTER UPDATE OF content, tool_name, tool_calls ON messages
   WHEN old.id <= ${FTS_WATERMARK_SQL} BEGIN
    DELETE FROM messages_fts WHERE rowid = old.id;
    DELETE FROM messages_trigram WHERE rowid = old.id;
    ${ftsInsert('messages_fts')}
    ${trigramInsert()}
  END`,
];

/** Every migration, oldest first. Never edit a released one; append a new version instead. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'initial schema with full-text search',
    up: [...CREATE_TABLES, ...CREATE_FTS],
  },
];

/** The schema version this build writes. */
export const LATEST_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;
