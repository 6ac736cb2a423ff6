/** The SessionStore on SQLite (better-sqlite3): one database file shared by every process. */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { type ToolSchema, ToolSchemaSchema } from '@hermes/protocol';
import { z } from 'zod';
import type { CompactionRequest, CompactionResult } from '../compaction.js';
import { sessionExistsError } from '../errors.js';
import type { SearchHit, SearchOptions } from '../search.js';
import type {
  CounterDelta,
  ListSessionsOptions,
  SessionInit,
  SessionPatch,
  SessionRecord,
} from '../session-record.js';
import { SessionStore } from '../session-store.js';
import type { AppendableMessage, GetMessagesOptions, StoredMessage } from '../stored-message.js';
import { openDatabase, type SqliteDatabase, writeTransaction } from './connection.js';
import {
  FTS_BATCH_ROWS,
  FTS_IDLE_FLUSH_MS,
  flushFtsIndex,
  idleMaintenance,
  indexBacklog,
} from './fts-index.js';
import {
  appendRows,
  compactRows,
  type WriteOutcome,
  type WrittenMessages,
} from './message-writes.js';
import { toSessionRecord, toStoredMessage } from './row-mapping.js';
import type { MessageRow, SessionRow } from './schema.js';
import { searchMessages } from './search/index.js';
import { PATCH_COLUMNS, prepareStatements, type Statements } from './statements.js';
import { trajectoryJsonl } from './trajectory.js';

/** Where and how {@link openSessionStore} opens the database. */
export interface OpenSessionStoreOptions {
  /** The database file. Default `<hermesHome>/state.db`. */
  readonly path?: string;
  /** Default `process.env.HERMES_HOME`, else `~/.hermes`. */
  readonly hermesHome?: string;
  /** Open without write access: reads work, every write rejects with `state.persistence_failed`. */
  readonly readonly?: boolean;
}

/** The kv namespace holding each session's tool schemas for trajectory export. */
const TOOL_SCHEMAS_NAMESPACE = 'tool_schemas';

/**
 * {@link SessionStore} on a SQLite file in WAL mode. Writes run in `BEGIN IMMEDIATE` transactions
 * with retry, so several processes may share one file. Failed writes reject with
 * `state.persistence_failed` (or `state.busy`) and change nothing.
 */
export class SqliteSessionStore extends SessionStore {
  /** The open database; for the search modes and diagnostics. */
  readonly db: SqliteDatabase;
  /** The database file. */
  readonly path: string;
  private readonly stmts: Statements;
  private readonly written: WrittenMessages = new WeakMap();
  /**
   * Rows this handle wrote since it last indexed. Checking the shared backlog costs a query, so
   * it is checked only once this handle alone could have filled a batch; rows other processes
   * append are swept up by whichever handle indexes next (the backlog is global).
   */
  private unindexed = 0;
  /** The pending idle-time index flush, if one is scheduled. */
  private idleFlush: NodeJS.Timeout | undefined;

  /** Opens (creating and migrating when needed) the database at `path`. */
  constructor(path: string, options: { readonly readonly?: boolean } = {}) {
    super();
    this.path = path;
    this.db = openDatabase(path, options);
    this.stmts = prepareStatements(this.db);
  }

  private async writeMessages<T>(what: string, fn: () => WriteOutcome<T>): Promise<T> {
    let indexed = false;
    const outcome = await writeTransaction(this.db, what, () => {
      const result = fn();
      // Amortized: one FTS segment per batch of appended rows, not one per commit.
      if (this.unindexed + result.written.size >= FTS_BATCH_ROWS) {
        indexBacklog(this.db, FTS_BATCH_ROWS);
        indexed = true;
      }
      return result;
    });
    this.unindexed = indexed ? 0 : this.unindexed + outcome.written.size;
    if (this.unindexed > 0) this.scheduleIndexing();
    for (const [message, id] of outcome.written) this.written.set(message, id);
    return outcome.result;
  }

  /**
   * Indexes the backlog once appends pause, off the append's critical path (the loop waits for
   * every append; nobody waits for the index until they search, and search flushes first).
   */
  private scheduleIndexing(): void {
    if (this.idleFlush) return;
    this.idleFlush = setTimeout(() => {
      this.idleFlush = undefined;
      if (!this.db.open) return;
      idleMaintenance(this.db);
      this.unindexed = 0;
    }, FTS_IDLE_FLUSH_MS);
    this.idleFlush.unref(); // never keeps a process alive; close() flushes anyway
  }

  private session(id: string): SessionRecord | undefined {
    const row = this.stmts.getSession.get(id) as SessionRow | undefined;
    return row && toSessionRecord(row);
  }

  async createSession(init: SessionInit): Promise<SessionRecord> {
    const id = init.id ?? randomUUID();
    await writeTransaction(this.db, 'create a session', () => {
      if (this.stmts.getSession.get(id)) throw sessionExistsError(id);
      this.stmts.insertSession.run({
        id,
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
    });
    return this.session(id) as SessionRecord;
  }

  getSession(id: string): Promise<SessionRecord | undefined> {
    return Promise.resolve(this.session(id));
  }

  appendMessages(sessionId: string, messages: readonly AppendableMessage[]): Promise<number[]> {
    return this.writeMessages('append messages', () =>
      appendRows(this.stmts, this.written, sessionId, messages),
    );
  }

  getMessages(sessionId: string, options: GetMessagesOptions = {}): Promise<StoredMessage[]> {
    const stmt = options.includeInactive ? this.stmts.getAllMessages : this.stmts.getActiveMessages;
    return Promise.resolve((stmt.all(sessionId) as MessageRow[]).map(toStoredMessage));
  }

  archiveAndCompact(sessionId: string, request: CompactionRequest): Promise<CompactionResult> {
    return this.writeMessages('archive and compact', () =>
      compactRows(this.stmts, sessionId, request),
    );
  }

  search(query: string, options: SearchOptions = {}): Promise<SearchHit[]> {
    return Promise.resolve(searchMessages(this.db, query, options));
  }

  async endSession(id: string, reason: string): Promise<SessionRecord | undefined> {
    await writeTransaction(this.db, 'end a session', () =>
      this.stmts.endSession.run({ id, reason, now: Date.now() }),
    );
    return this.session(id);
  }

  override async updateSession(
    id: string,
    patch: SessionPatch,
  ): Promise<SessionRecord | undefined> {
    await writeTransaction(this.db, 'update a session', () => {
      for (const field of Object.keys(PATCH_COLUMNS) as (keyof typeof PATCH_COLUMNS)[]) {
        const value = patch[field];
        if (value === undefined) continue;
        this.stmts.patch[field].run(typeof value === 'boolean' ? Number(value) : value, id);
      }
    });
    return this.session(id);
  }

  override async incrementCounters(
    id: string,
    delta: CounterDelta,
  ): Promise<SessionRecord | undefined> {
    await writeTransaction(this.db, 'update session counters', () =>
      this.stmts.incrementCounters.run({
        id,
        inputTokens: delta.inputTokens ?? 0,
        outputTokens: delta.outputTokens ?? 0,
        cacheReadTokens: delta.cacheReadTokens ?? 0,
        cacheWriteTokens: delta.cacheWriteTokens ?? 0,
        reasoningTokens: delta.reasoningTokens ?? 0,
        messages: delta.messages ?? 0,
        toolCalls: delta.toolCalls ?? 0,
        apiCalls: delta.apiCalls ?? 0,
        estimatedCostUsd: delta.estimatedCostUsd ?? 0,
        compressions: delta.compressions ?? 0,
      }),
    );
    return this.session(id);
  }

  override listSessions(options: ListSessionsOptions = {}): Promise<SessionRecord[]> {
    const rows = this.stmts.listSessions.all({
      source: options.source ?? null,
      userId: options.userId ?? null,
      sessionKey: options.sessionKey ?? null,
      parentSessionId: options.parentSessionId ?? null,
      includeArchived: options.includeArchived ? 1 : 0,
      limit: options.limit ?? -1,
    }) as SessionRow[];
    return Promise.resolve(rows.map(toSessionRecord));
  }

  override prune(olderThan: number): Promise<number> {
    return writeTransaction(
      this.db,
      'prune sessions',
      () => this.stmts.prune.run(olderThan).changes,
    );
  }

  override deleteSession(id: string): Promise<boolean> {
    return writeTransaction(
      this.db,
      'delete a session',
      () => this.stmts.deleteSession.run(id).changes > 0,
    );
  }

  override async saveSystemPrompt(hash: string, text: string): Promise<void> {
    await writeTransaction(this.db, 'save a system prompt', () =>
      this.stmts.saveSystemPrompt.run(hash, text, Date.now()),
    );
  }

  override getSystemPrompt(hash: string): Promise<string | undefined> {
    const row = this.stmts.getSystemPrompt.get(hash) as { text: string } | undefined;
    return Promise.resolve(row?.text);
  }

  /** The JSON value stored under (`namespace`, `key`), or `undefined`. */
  getState(namespace: string, key: string): Promise<unknown> {
    const row = this.stmts.getKv.get(namespace, key) as { value: string } | undefined;
    return Promise.resolve(row === undefined ? undefined : JSON.parse(row.value));
  }

  /** Stores a JSON-serializable value under (`namespace`, `key`); `undefined` deletes it. */
  async setState(namespace: string, key: string, value: unknown): Promise<void> {
    await writeTransaction(this.db, 'save subsystem state', () =>
      value === undefined
        ? this.stmts.deleteKv.run(namespace, key)
        : this.stmts.setKv.run(namespace, key, JSON.stringify(value), Date.now()),
    );
  }

  /** Remembers the tool schemas offered in a session, for trajectory export. */
  saveToolSchemas(sessionId: string, tools: readonly ToolSchema[]): Promise<void> {
    return this.setState(TOOL_SCHEMAS_NAMESPACE, sessionId, tools);
  }

  /**
   * The session as JSON Lines (see `trajectoryJsonl`): system prompt, tool schemas when stored,
   * then every message. `undefined` for an unknown session.
   */
  async exportTrajectoryJsonl(sessionId: string): Promise<string | undefined> {
    const session = this.session(sessionId);
    if (!session) return undefined;
    const hash = session.systemPromptHash;
    return trajectoryJsonl({
      sessionId,
      systemPrompt: hash === null ? undefined : await this.getSystemPrompt(hash),
      toolSchemas: await this.toolSchemas(sessionId),
      messages: await this.getMessages(sessionId, { includeInactive: true }),
    });
  }

  private async toolSchemas(sessionId: string): Promise<ToolSchema[] | undefined> {
    const stored = await this.getState(TOOL_SCHEMAS_NAMESPACE, sessionId);
    return stored === undefined ? undefined : z.array(ToolSchemaSchema).parse(stored);
  }

  override close(): Promise<void> {
    if (this.idleFlush) clearTimeout(this.idleFlush);
    this.idleFlush = undefined;
    if (this.db.open) {
      flushFtsIndex(this.db);
      this.db.close();
    }
    return Promise.resolve();
  }
}

/** Default database path: `<hermesHome>/state.db`. */
export function defaultStatePath(hermesHome?: string): string {
  const home = hermesHome ?? process.env.HERMES_HOME ?? join(process.env.HOME ?? '.', '.hermes');
  return join(home, 'state.db');
}

/** Opens the session store (default `HERMES_HOME/state.db`), creating and migrating it. */
export function openSessionStore(options: OpenSessionStoreOptions = {}): SqliteSessionStore {
  const path = options.path ?? defaultStatePath(options.hermesHome);
  return new SqliteSessionStore(path, options.readonly ? { readonly: true } : {});
}
