/** A SessionStore at its seam that delegates to a real store and fails chosen appends. */
import type { ChatMessage } from '@hermes/protocol';
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
  toAppendInput,
} from '@hermes/state';

/** Fails `appendMessages` when `failWhen` says so for any message of the batch. */
export class FailingStore extends SessionStore {
  constructor(
    readonly inner: SessionStore,
    readonly failWhen: (message: ChatMessage) => boolean,
  ) {
    super();
  }
  createSession(init: SessionInit): Promise<SessionRecord> {
    return this.inner.createSession(init);
  }
  getSession(id: string): Promise<SessionRecord | undefined> {
    return this.inner.getSession(id);
  }
  appendMessages(sessionId: string, messages: readonly AppendableMessage[]): Promise<number[]> {
    if (messages.some((m) => this.failWhen(toAppendInput(m).message))) {
      return Promise.reject(new Error('disk full (simulated)'));
    }
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
