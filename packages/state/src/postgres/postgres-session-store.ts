/**
 * The SessionStore on PostgreSQL. (Skeleton: the implementation lands with issue 24's state work.)
 */
import { HermesError } from '@hermes/protocol';
import type { CompactionRequest, CompactionResult } from '../compaction.js';
import type { SearchHit, SearchOptions } from '../search.js';
import type { SessionExport } from '../session-export.js';
import type { SessionInit, SessionRecord } from '../session-record.js';
import { SessionStore } from '../session-store.js';
import type { AppendableMessage, GetMessagesOptions, StoredMessage } from '../stored-message.js';
import {
  type PostgresConnectOptions,
  PostgresDatabase,
  type PostgresMigration,
} from './database.js';

/** The component name of the session tables in `hermes_migrations`. */
export const SESSION_STORE_COMPONENT = 'state';
/** The session tables' migrations. */
export const SESSION_STORE_MIGRATIONS: readonly PostgresMigration[] = [];

/** What {@link PostgresSessionStore.importSession} did. */
export type ImportResult = 'imported' | 'exists';

const todo = () => new HermesError('state.not_implemented', 'PostgresSessionStore: not yet');

/** Sessions and messages in PostgreSQL. */
export class PostgresSessionStore extends SessionStore {
  readonly database: PostgresDatabase;
  protected constructor(database: PostgresDatabase) {
    super();
    this.database = database;
  }
  /** Migrates and opens the store on a database the caller owns (and closes). */
  static async open(database: PostgresDatabase): Promise<PostgresSessionStore> {
    return new PostgresSessionStore(database);
  }
  /** Connects, migrates and opens; `close()` also closes the connection pool. */
  static async connect(options: PostgresConnectOptions): Promise<PostgresSessionStore> {
    return PostgresSessionStore.open(await PostgresDatabase.connect(options));
  }
  /** Writes a whole exported session (every row, ids re-numbered, times kept); skips a known id. */
  importSession(_doc: SessionExport): Promise<ImportResult> {
    throw todo();
  }
  createSession(_init: SessionInit): Promise<SessionRecord> {
    throw todo();
  }
  getSession(_id: string): Promise<SessionRecord | undefined> {
    throw todo();
  }
  appendMessages(_sessionId: string, _messages: readonly AppendableMessage[]): Promise<number[]> {
    throw todo();
  }
  getMessages(_sessionId: string, _options?: GetMessagesOptions): Promise<StoredMessage[]> {
    throw todo();
  }
  archiveAndCompact(_sessionId: string, _request: CompactionRequest): Promise<CompactionResult> {
    throw todo();
  }
  search(_query: string, _options?: SearchOptions): Promise<SearchHit[]> {
    throw todo();
  }
  endSession(_id: string, _reason: string): Promise<SessionRecord | undefined> {
    throw todo();
  }
}
