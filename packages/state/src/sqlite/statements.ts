/** The SQL of the session store, prepared once per open database (each statement on first use). */
import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from './connection.js';
import { selectList } from './row-mapping.js';
import { messages, sessions } from './schema.js';

const SESSION_COLUMNS = selectList(sessions);
const MESSAGE_COLUMNS = selectList(messages);

/** Session fields an `updateSession` patch may set, with their columns. */
export const PATCH_COLUMNS = {
  userId: 'user_id',
  sessionKey: 'session_key',
  chatId: 'chat_id',
  threadId: 'thread_id',
  title: 'title',
  model: 'model',
  provider: 'provider',
  systemPromptHash: 'system_prompt_hash',
  archived: 'archived',
  compressionCooldownUntil: 'compression_cooldown_until',
  compressionFailureStreak: 'compression_failure_streak',
} as const;

/** Every prepared statement of one store. */
export interface Statements {
  readonly getSession: Statement;
  readonly insertSession: Statement;
  readonly insertMessage: Statement;
  readonly bumpAppendCounters: Statement;
  readonly getActiveMessages: Statement;
  readonly getAllMessages: Statement;
  readonly archiveActive: Statement;
  readonly endSession: Statement;
  readonly patch: Readonly<Record<keyof typeof PATCH_COLUMNS, Statement>>;
  readonly incrementCounters: Statement;
  readonly listSessions: Statement;
  readonly prune: Statement;
  readonly deleteSession: Statement;
  readonly saveSystemPrompt: Statement;
  readonly getSystemPrompt: Statement;
  readonly getKv: Statement;
  readonly setKv: Statement;
  readonly deleteKv: Statement;
}

/** Each member built on first use, then kept. */
type Thunks<T> = { readonly [K in keyof T]: () => T[K] };

/**
 * An object whose members are made on first read. Preparing every statement at open cost
 * milliseconds per store, and most stores use a few of them (a background review's in-memory
 * store, a CLI command's).
 */
function onFirstUse<T extends object>(thunks: Thunks<T>): T {
  const members = {} as T;
  for (const key of Object.keys(thunks) as (keyof T)[]) {
    let made: T[keyof T] | undefined;
    Object.defineProperty(members, key, {
      enumerable: true,
      get: () => {
        made ??= thunks[key]();
        return made;
      },
    });
  }
  return members;
}

function patchStatements(db: SqliteDatabase): Statements['patch'] {
  const entries = Object.entries(PATCH_COLUMNS).map(([field, column]) => [
    field,
    () => db.prepare(`UPDATE sessions SET ${column} = ? WHERE id = ?`),
  ]);
  return onFirstUse(Object.fromEntries(entries) as Thunks<Statements['patch']>);
}

/** The statements of one store against `db`, each prepared the first time it is used. */
export function prepareStatements(db: SqliteDatabase): Statements {
  return onFirstUse<Statements>({
    getSession: () => db.prepare(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE id = ?`),
    insertSession: () =>
      db.prepare(
        `INSERT INTO sessions (id, source, user_id, session_key, chat_id, thread_id, title, model,
        provider, system_prompt_hash, parent_session_id, started_at)
       VALUES (@id, @source, @userId, @sessionKey, @chatId, @threadId, @title, @model,
        @provider, @systemPromptHash, @parentSessionId, @startedAt)`,
      ),
    insertMessage: () =>
      db.prepare(
        `INSERT INTO messages (session_id, role, content, content_is_json, tool_calls, tool_call_id,
        tool_name, reasoning, reasoning_details, api_content, finish_reason, token_count,
        created_at, platform_message_id, extra)
       VALUES (@session_id, @role, @content, @content_is_json, @tool_calls, @tool_call_id,
        @tool_name, @reasoning, @reasoning_details, @api_content, @finish_reason, @token_count,
        @created_at, @platform_message_id, @extra)`,
      ),
    bumpAppendCounters: () =>
      db.prepare(
        `UPDATE sessions SET message_count = message_count + @messages,
        tool_call_count = tool_call_count + @toolCalls WHERE id = @id`,
      ),
    getActiveMessages: () =>
      db.prepare(
        `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE session_id = ? AND active = 1 ORDER BY id`,
      ),
    getAllMessages: () =>
      db.prepare(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE session_id = ? ORDER BY id`),
    archiveActive: () =>
      db.prepare(
        'UPDATE messages SET active = 0, compacted = 1 WHERE session_id = ? AND active = 1',
      ),
    endSession: () =>
      db.prepare(
        `UPDATE sessions SET ended_at = max(@now, started_at), end_reason = @reason
       WHERE id = @id AND ended_at IS NULL`,
      ),
    patch: () => patchStatements(db),
    incrementCounters: () =>
      db.prepare(
        `UPDATE sessions SET input_tokens = input_tokens + @inputTokens,
        output_tokens = output_tokens + @outputTokens,
        cache_read_tokens = cache_read_tokens + @cacheReadTokens,
        cache_write_tokens = cache_write_tokens + @cacheWriteTokens,
        reasoning_tokens = reasoning_tokens + @reasoningTokens,
        message_count = message_count + @messages,
        tool_call_count = tool_call_count + @toolCalls,
        api_call_count = api_call_count + @apiCalls,
        estimated_cost_usd = estimated_cost_usd + @estimatedCostUsd,
        compression_count = compression_count + @compressions
       WHERE id = @id`,
      ),
    listSessions: () =>
      db.prepare(
        `SELECT ${SESSION_COLUMNS} FROM sessions
       WHERE (@source IS NULL OR source = @source) AND (@userId IS NULL OR user_id = @userId)
         AND (@sessionKey IS NULL OR session_key = @sessionKey)
         AND (@parentSessionId IS NULL OR parent_session_id = @parentSessionId)
         AND (@includeArchived = 1 OR archived = 0)
       ORDER BY started_at DESC, rowid DESC LIMIT @limit`,
      ),
    prune: () => db.prepare('DELETE FROM sessions WHERE started_at < ? AND ended_at IS NOT NULL'),
    deleteSession: () => db.prepare('DELETE FROM sessions WHERE id = ?'),
    saveSystemPrompt: () =>
      db.prepare('INSERT OR IGNORE INTO system_prompts (hash, text, created_at) VALUES (?, ?, ?)'),
    getSystemPrompt: () => db.prepare('SELECT text FROM system_prompts WHERE hash = ?'),
    getKv: () => db.prepare('SELECT value FROM kv WHERE namespace = ? AND key = ?'),
    setKv: () =>
      db.prepare(
        `INSERT INTO kv (namespace, key, value, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
      ),
    deleteKv: () => db.prepare('DELETE FROM kv WHERE namespace = ? AND key = ?'),
  });
}
