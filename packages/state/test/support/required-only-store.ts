/** A store that implements only the abstract members, delegating them to an in-memory store. */
import {
  type AppendableMessage,
  type CompactionRequest,
  type CompactionResult,
  type GetMessagesOptions,
  type SearchHit,
  type SearchOptions,
  type SessionInit,
  type SessionRecord,
  SessionStore,
  type StoredMessage,
} from '../../src/index.js';
import { InMemorySessionStore } from './in-memory-session-store.js';

export class RequiredOnlyStore extends SessionStore {
  private readonly inner = new InMemorySessionStore();

  createSession(init: SessionInit): Promise<SessionRecord> {
    return this.inner.createSession(init);
  }
  getSession(id: string): Promise<SessionRecord | undefined> {
    return this.inner.getSession(id);
  }
  appendMessages(sessionId: string, messages: readonly AppendableMessage[]): Promise<number[]> {
    return this.inner.appendMessages(sessionId, messages);
  }
  getMessages(sessionId: string, options?: GetMessagesOptions): Promise<StoredMessage[]> {
    return this.inner.getMessages(sessionId, options);
  }
  archiveAndCompact(sessionId: string, request: CompactionRequest): Promise<CompactionResult> {
    return this.inner.archiveAndCompact(sessionId, request);
  }
  search(query: string, options?: SearchOptions): Promise<SearchHit[]> {
    return this.inner.search(query, options);
  }
  endSession(id: string, reason: string): Promise<SessionRecord | undefined> {
    return this.inner.endSession(id, reason);
  }
}
