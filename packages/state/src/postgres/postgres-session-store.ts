/**
 * The SessionStore on PostgreSQL: one schema shared by every process (gateways, CLI, cron).
 * Every write is one transaction; writes to one session serialize on its row lock, so several
 * processes may append to the same session without lost or duplicated rows.
 */
import { randomUUID } from 'node:crypto';
import { and, desc, eq, lt, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import type { CompactionRequest, CompactionResult } from '../compaction.js';
import { sessionExistsError } from '../errors.js';
import type { SearchHit } from '../search.js';
import type { SessionExport } from '../session-export.js';
import type {
  CounterDelta,
  ListSessionsOptions,
  SessionInit,
  SessionPatch,
  SessionRecord,
} from '../session-record.js';
import { SessionStore } from '../session-store.js';
import type { AppendableMessage, GetMessagesOptions, StoredMessage } from '../stored-message.js';
import {
  type PostgresConnectOptions,
  PostgresDatabase,
  type PostgresMigration,
} from './database.js';
import { importSessionRows } from './import-session.js';
import {
  appendRows,
  compactRows,
  endSessionRow,
  ROWS_PER_INSERT,
  type Tx,
  type WriteOutcome,
  type WrittenMessages,
} from './message-writes.js';
import { POSTGRES_SESSION_MIGRATIONS } from './migrations.js';
import { escapeNul, unescapeNul } from './nul-escape.js';
import { escapeSessionText, toSessionRecordPg, toStoredMessagePg } from './row-mapping.js';
import { messages, sessions, systemPrompts } from './schema.js';
import { type PostgresSearchOptions, searchMessagesPg } from './search/index.js';
import { listSessionsWhere, sessionPatchValues } from './session-queries.js';

/** The component name of the session tables in `hermes_migrations`. */
export const SESSION_STORE_COMPONENT = 'state';
/** The session tables' migrations. */
export const SESSION_STORE_MIGRATIONS: readonly PostgresMigration[] = POSTGRES_SESSION_MIGRATIONS;

/** What {@link PostgresSessionStore.importSession} did. */
export type ImportResult = 'imported' | 'exists';

/** The SQLSTATE of a unique violation. */
const UNIQUE_VIOLATION = '23505';

/** Sessions and messages in PostgreSQL. */
export class PostgresSessionStore extends SessionStore {
  readonly database: PostgresDatabase;
  readonly #db: Tx;
  readonly #written: WrittenMessages = new WeakMap();
  readonly #ownsDatabase: boolean;
  #closed = false;

  protected constructor(database: PostgresDatabase, ownsDatabase: boolean) {
    super();
    this.database = database;
    this.#db = drizzle(database.pool);
    this.#ownsDatabase = ownsDatabase;
  }

  /** Migrates and opens the store on a database the caller owns (and closes). */
  static async open(database: PostgresDatabase): Promise<PostgresSessionStore> {
    await database.migrate(SESSION_STORE_COMPONENT, SESSION_STORE_MIGRATIONS);
    return new PostgresSessionStore(database, false);
  }

  /** Connects, migrates and opens; `close()` also closes the connection pool. */
  static async connect(options: PostgresConnectOptions): Promise<PostgresSessionStore> {
    const database = await PostgresDatabase.connect(options);
    try {
      await database.migrate(SESSION_STORE_COMPONENT, SESSION_STORE_MIGRATIONS);
    } catch (error) {
      await database.close();
      throw error;
    }
    return new PostgresSessionStore(database, true);
  }

  /** Runs `work` in one transaction with drizzle over its connection. */
  #transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.database.transaction((client) => work(drizzle(client)));
  }

  #writeMessages<T>(work: (tx: Tx) => Promise<WriteOutcome<T>>): Promise<T> {
    return this.#recordWritten(this.#transaction(work));
  }

  /** Remembers the written message objects once their write committed. */
  async #recordWritten<T>(write: Promise<WriteOutcome<T>>): Promise<T> {
    const outcome = await write;
    for (const [message, id] of outcome.written) this.#written.set(message, id);
    return outcome.result;
  }

  /**
   * Writes a whole exported session (every row, ids re-numbered, times and flags kept) in one
   * transaction; `'exists'` when the id is already taken, so a copy can be re-run.
   */
  async importSession(doc: SessionExport): Promise<ImportResult> {
    const imported = await this.#transaction((tx) => importSessionRows(tx, doc));
    return imported ? 'imported' : 'exists';
  }

  async createSession(init: SessionInit): Promise<SessionRecord> {
    const values = escapeSessionText({
      id: init.id ?? randomUUID(),
      source: init.source,
      userId: init.userId ?? null,
      sessionKey: init.sessionKey ?? null,
      chatId: init.chatId ?? null,
      threadId: init.threadId ?? null,
      title: init.title ?? null,
      model: init.model ?? null,
      provider: init.provider ?? null,
      systemPromptHash: init.systemPromptHash ?? null,
      parentSessionId: init.parentSessionId ?? null,
      startedAt: init.startedAt ?? Date.now(),
    });
    try {
      const [row] = await this.#db.insert(sessions).values(values).returning();
      return toSessionRecordPg(row as typeof sessions.$inferSelect);
    } catch (error) {
      if (isUniqueViolation(error)) throw sessionExistsError(values.id);
      throw error;
    }
  }

  async getSession(id: string): Promise<SessionRecord | undefined> {
    const [row] = await this.#db.select().from(sessions).where(eq(sessions.id, id));
    return row && toSessionRecordPg(row);
  }

  appendMessages(sessionId: string, items: readonly AppendableMessage[]): Promise<number[]> {
    const work = (tx: Tx) => appendRows(tx, this.#written, sessionId, items);
    // A small append is one statement (see appendRows): no transaction round trips needed.
    if (items.length <= ROWS_PER_INSERT) return this.#recordWritten(work(this.#db));
    return this.#writeMessages(work);
  }

  async getMessages(sessionId: string, options: GetMessagesOptions = {}): Promise<StoredMessage[]> {
    const where = options.includeInactive
      ? eq(messages.sessionId, sessionId)
      : and(eq(messages.sessionId, sessionId), eq(messages.active, true));
    const rows = await this.#db.select().from(messages).where(where).orderBy(messages.id);
    return rows.map(toStoredMessagePg);
  }

  archiveAndCompact(sessionId: string, request: CompactionRequest): Promise<CompactionResult> {
    return this.#writeMessages((tx) => compactRows(tx, sessionId, request));
  }

  /** Full-text search (see `search/search-messages.ts`); also takes `roles` and `includeArchived`. */
  search(query: string, options: PostgresSearchOptions = {}): Promise<SearchHit[]> {
    return searchMessagesPg(this.database, query, options);
  }

  async endSession(id: string, reason: string): Promise<SessionRecord | undefined> {
    await endSessionRow(this.#db, id, reason, Date.now());
    return this.getSession(id);
  }

  override async updateSession(
    id: string,
    patch: SessionPatch,
  ): Promise<SessionRecord | undefined> {
    const values = sessionPatchValues(patch);
    if (Object.keys(values).length === 0) return this.getSession(id);
    const [row] = await this.#db
      .update(sessions)
      .set(escapeSessionText(values))
      .where(eq(sessions.id, id))
      .returning();
    return row && toSessionRecordPg(row);
  }

  override async incrementCounters(
    id: string,
    delta: CounterDelta,
  ): Promise<SessionRecord | undefined> {
    const add = (column: typeof sessions.inputTokens, value: number | undefined) =>
      sql`${column} + ${value ?? 0}`;
    const [row] = await this.#db
      .update(sessions)
      .set({
        inputTokens: add(sessions.inputTokens, delta.inputTokens),
        outputTokens: add(sessions.outputTokens, delta.outputTokens),
        cacheReadTokens: add(sessions.cacheReadTokens, delta.cacheReadTokens),
        cacheWriteTokens: add(sessions.cacheWriteTokens, delta.cacheWriteTokens),
        reasoningTokens: add(sessions.reasoningTokens, delta.reasoningTokens),
        messageCount: add(sessions.messageCount, delta.messages),
        toolCallCount: add(sessions.toolCallCount, delta.toolCalls),
        apiCallCount: add(sessions.apiCallCount, delta.apiCalls),
        estimatedCostUsd: sql`${sessions.estimatedCostUsd} + ${delta.estimatedCostUsd ?? 0}::float8`,
        compressionCount: add(sessions.compressionCount, delta.compressions),
      })
      .where(eq(sessions.id, id))
      .returning();
    return row && toSessionRecordPg(row);
  }

  override async listSessions(options: ListSessionsOptions = {}): Promise<SessionRecord[]> {
    const query = this.#db
      .select()
      .from(sessions)
      .where(listSessionsWhere(options))
      .orderBy(desc(sessions.startedAt), desc(sessions.seq));
    // A negative limit means all, as SQLite's LIMIT -1 does.
    const all = options.limit === undefined || options.limit < 0;
    const rows = await (all ? query : query.limit(options.limit as number));
    return rows.map(toSessionRecordPg);
  }

  override async prune(olderThan: number): Promise<number> {
    const result = await this.#db
      .delete(sessions)
      .where(and(lt(sessions.startedAt, olderThan), sql`${sessions.endedAt} IS NOT NULL`));
    return result.rowCount ?? 0;
  }

  override async deleteSession(id: string): Promise<boolean> {
    const result = await this.#db.delete(sessions).where(eq(sessions.id, id));
    return (result.rowCount ?? 0) > 0;
  }

  override async saveSystemPrompt(hash: string, text: string): Promise<void> {
    await this.#db
      .insert(systemPrompts)
      .values({ hash, text: escapeNul(text), createdAt: Date.now() })
      .onConflictDoNothing({ target: systemPrompts.hash });
  }

  override async getSystemPrompt(hash: string): Promise<string | undefined> {
    const [row] = await this.#db
      .select({ text: systemPrompts.text })
      .from(systemPrompts)
      .where(eq(systemPrompts.hash, hash));
    return row === undefined ? undefined : unescapeNul(row.text);
  }

  /** Closes the pool when {@link connect} opened it; a database given to {@link open} stays open. */
  override async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#ownsDatabase) await this.database.close();
  }
}

function isUniqueViolation(error: unknown): boolean {
  const seen = new Set<unknown>();
  for (let e: unknown = error; e instanceof Error && !seen.has(e); e = e.cause) {
    seen.add(e);
    if ((e as { code?: unknown }).code === UNIQUE_VIOLATION) return true;
  }
  return false;
}
