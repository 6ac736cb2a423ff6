/** The SessionStore seam: where conversations are persisted, archived and searched. */
import type { CompactionRequest, CompactionResult } from './compaction.js';
import type { SearchHit, SearchOptions } from './search.js';
import type { SessionExport } from './session-export.js';
import type {
  CounterDelta,
  ListSessionsOptions,
  SessionInit,
  SessionPatch,
  SessionRecord,
} from './session-record.js';
import type { AppendableMessage, GetMessagesOptions, StoredMessage } from './stored-message.js';

/**
 * Durable storage of sessions and their messages. The loop persists every message before it
 * acts on it, so a failed write must reject (never be swallowed). All members are asynchronous so
 * a networked database fits behind the same seam.
 *
 * Implement the abstract members; the optional members have safe defaults, so an implementation
 * written today keeps working when a new optional member is added. Run
 * `describeSessionStoreContract` from `@hermes/state/testing` against it.
 *
 * Lookups of an unknown session resolve to `undefined` (or an empty list); writes to an unknown
 * session reject with a `HermesError` of code `state.session_not_found`.
 */
export abstract class SessionStore {
  /**
   * Creates a session and resolves to its record: counters at zero, not ended, not archived.
   * Rejects with `state.session_exists` when `init.id` is already taken.
   */
  abstract createSession(init: SessionInit): Promise<SessionRecord>;

  /** The session with this id, or `undefined` when there is none. */
  abstract getSession(id: string): Promise<SessionRecord | undefined>;

  /**
   * Appends messages to the end of a session as active rows and resolves to their ids, one per
   * input, in order. Ids strictly increase in write order.
   *
   * Idempotent per message object: a `ChatMessage` object this store instance already wrote (by
   * this call, an earlier one, or `archiveAndCompact`) is not written again; its existing id is
   * returned. Several exit paths of one turn may therefore flush the same list safely. (Identity
   * is the object, not its content: two equal objects are two messages.)
   *
   * Adds the rows written to `counters.messages` and their tool calls to `counters.toolCalls`.
   */
  abstract appendMessages(
    sessionId: string,
    messages: readonly AppendableMessage[],
  ): Promise<number[]>;

  /**
   * The session's messages in id order: the active conversation, or with `includeInactive`
   * every row including archived ones. Unknown session: an empty list.
   */
  abstract getMessages(sessionId: string, options?: GetMessagesOptions): Promise<StoredMessage[]>;

  /**
   * Replaces the active conversation in one transaction, all or nothing: every active row becomes
   * `active: false, compacted: true` (never deleted, still searchable) and `request.replacement`
   * is written as the new active rows. In `child_session` mode the session is ended and the
   * replacement goes to a new child session. The replacement's message objects count as written
   * for later idempotent appends.
   */
  abstract archiveAndCompact(
    sessionId: string,
    request: CompactionRequest,
  ): Promise<CompactionResult>;

  /**
   * Full-text search over message content, best hit first. Any user input is a valid query:
   * punctuation, quotes and operators never make it throw. Archived rows are found too unless
   * `activeOnly` is set.
   */
  abstract search(query: string, options?: SearchOptions): Promise<SearchHit[]>;

  /**
   * Marks a session ended with a reason and resolves to the updated record. Ending an ended
   * session keeps its first end time and reason. Unknown session: `undefined`.
   */
  abstract endSession(id: string, reason: string): Promise<SessionRecord | undefined>;

  /**
   * Changes metadata fields and resolves to the updated record (`undefined` for an unknown
   * session). Default: ignores the patch and returns the current record.
   */
  updateSession(id: string, _patch: SessionPatch): Promise<SessionRecord | undefined> {
    return this.getSession(id);
  }

  /**
   * Adds usage, API calls, cost and compressions to a session's counters and resolves to the
   * updated record. Default: ignores the delta and returns the current record.
   */
  incrementCounters(id: string, _delta: CounterDelta): Promise<SessionRecord | undefined> {
    return this.getSession(id);
  }

  /** Sessions matching the filter, newest first. Default: an empty list. */
  listSessions(_options?: ListSessionsOptions): Promise<SessionRecord[]> {
    return Promise.resolve([]);
  }

  /**
   * The session and every row (archived ones included) as one JSON-ready document, or
   * `undefined` for an unknown session. Default: built from `getSession` and `getMessages`.
   */
  async export(sessionId: string): Promise<SessionExport | undefined> {
    const session = await this.getSession(sessionId);
    if (!session) return undefined;
    const messages = await this.getMessages(sessionId, { includeInactive: true });
    return { format: 'hermes.session', version: 1, session, messages };
  }

  /**
   * Deletes sessions that started before `olderThan` (milliseconds since the epoch) and ended,
   * with their messages; resolves to how many sessions went. Default: deletes nothing, 0.
   */
  prune(_olderThan: number): Promise<number> {
    return Promise.resolve(0);
  }

  /** Deletes one session and its messages; true when it existed. Default: deletes nothing. */
  deleteSession(_id: string): Promise<boolean> {
    return Promise.resolve(false);
  }

  /**
   * Stores a system prompt under its hash, so a resumed session can restore the exact prompt
   * (and the provider's prefix cache). Default: stores nothing.
   */
  saveSystemPrompt(_hash: string, _text: string): Promise<void> {
    return Promise.resolve();
  }

  /** The system prompt stored under `hash`. Default: `undefined`, so the host rebuilds it. */
  getSystemPrompt(_hash: string): Promise<string | undefined> {
    return Promise.resolve(undefined);
  }

  /** Releases the database handle. Safe to call more than once. Default: nothing to release. */
  close(): Promise<void> {
    return Promise.resolve();
  }
}
