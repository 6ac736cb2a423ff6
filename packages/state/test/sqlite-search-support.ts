/**
 * Fixtures of the search tests: a real database file in the per-test HERMES_HOME, created by the
 * store's own migrations, and rows inserted with plain SQL (the search module only reads).
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openDatabase, type SqliteDatabase } from '../src/sqlite/connection.js';
import { MIGRATIONS, TRIGRAM_FALLBACK_SQL, TRIGRAM_TABLE_SQL } from '../src/sqlite/migrations.js';

function dbPath(name: string): string {
  const home = process.env.HERMES_HOME;
  if (!home) throw new Error('HERMES_HOME is not set by the test setup');
  return join(home, name);
}

/** A fresh migrated database file `state.db` in this test's HERMES_HOME. */
export function openSearchDb(): SqliteDatabase {
  return openDatabase(dbPath('state.db'));
}

/**
 * A database built as on a SQLite without the trigram tokenizer: `messages_trigram` is a plain
 * table and kv ('state','trigram') is false, so search must use LIKE.
 */
export function openNoTrigramDb(): SqliteDatabase {
  const db = new Database(dbPath('no-trigram.db'));
  const first = MIGRATIONS[0];
  if (!first) throw new Error('no migrations');
  for (const sql of first.up) db.exec(sql === TRIGRAM_TABLE_SQL ? TRIGRAM_FALLBACK_SQL : sql);
  db.prepare(
    "INSERT INTO kv(namespace, key, value, updated_at) VALUES ('state', 'trigram', 'false', 0)",
  ).run();
  db.pragma(`user_version = ${first.version}`);
  return db;
}

/** A session row; only what the search modes read. */
export interface SessionRow {
  readonly id: string;
  readonly source?: string;
  readonly title?: string;
  readonly parent?: string;
  readonly startedAt?: number;
  readonly archived?: boolean;
}

/** Inserts a session. */
export function addSession(db: SqliteDatabase, row: SessionRow): void {
  db.prepare(
    `INSERT INTO sessions(id, source, title, parent_session_id, started_at, archived)
     VALUES (?, ?, ?, ?, ?, ?)`,
  ).run(
    row.id,
    row.source ?? 'cli',
    row.title ?? null,
    row.parent ?? null,
    row.startedAt ?? 1_000,
    row.archived ? 1 : 0,
  );
}

/** A message row; `content` may be a parts array (stored as JSON). */
export interface MessageRow {
  readonly role: 'system' | 'user' | 'assistant' | 'tool';
  readonly content: string | null | readonly { type: string; text?: string }[];
  readonly toolCalls?: readonly { name: string; arguments: string }[];
  readonly toolName?: string;
  readonly active?: boolean;
  readonly createdAt?: number;
}

/** Inserts a message and returns its id. */
export function addMessage(db: SqliteDatabase, sessionId: string, row: MessageRow): number {
  const isJson = Array.isArray(row.content);
  const toolCalls = row.toolCalls?.map((call, i) => ({
    id: `call_${i}`,
    type: 'function',
    function: call,
  }));
  const result = db
    .prepare(
      `INSERT INTO messages(session_id, role, content, content_is_json, tool_calls, tool_call_id,
         tool_name, created_at, active, compacted)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      sessionId,
      row.role,
      isJson ? JSON.stringify(row.content) : row.content,
      isJson ? 1 : 0,
      toolCalls ? JSON.stringify(toolCalls) : null,
      row.role === 'tool' ? 'call_0' : null,
      row.toolName ?? null,
      row.createdAt ?? 2_000,
      row.active === false ? 0 : 1,
      row.active === false ? 1 : 0,
    );
  return Number(result.lastInsertRowid);
}

/** Inserts a plain user/assistant conversation of `texts` and returns the ids. */
export function addConversation(
  db: SqliteDatabase,
  sessionId: string,
  texts: readonly string[],
): number[] {
  return texts.map((content, i) =>
    addMessage(db, sessionId, { role: i % 2 === 0 ? 'user' : 'assistant', content }),
  );
}
