/** A minimal in-test SessionStore: plain maps and arrays, substring search. */
import { randomUUID } from 'node:crypto';
import type { ChatMessage } from '@hermes/protocol';
import {
  type AppendableMessage,
  type CompactionRequest,
  type CompactionResult,
  type CounterDelta,
  emptyCounters,
  type GetMessagesOptions,
  type SearchHit,
  type SearchOptions,
  type SessionInit,
  type SessionPatch,
  type SessionRecord,
  SessionStore,
  type StoredMessage,
  sessionExistsError,
  sessionNotFoundError,
  toAppendInput,
} from '../../src/index.js';

function textOf(message: ChatMessage): string {
  const parts = typeof message.content === 'string' ? [message.content] : (message.content ?? []);
  return parts.map((p) => (typeof p === 'string' ? p : p.type === 'text' ? p.text : '')).join(' ');
}

export class InMemorySessionStore extends SessionStore {
  private readonly sessions = new Map<string, SessionRecord>();
  protected readonly rows: StoredMessage[] = [];
  private readonly written = new WeakMap<object, number>();
  private nextId = 1;

  createSession(init: SessionInit): Promise<SessionRecord> {
    const id = init.id ?? randomUUID();
    if (this.sessions.has(id)) return Promise.reject(sessionExistsError(id));
    const record: SessionRecord = {
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
      endedAt: null,
      endReason: null,
      archived: false,
      compressionCooldownUntil: null,
      compressionFailureStreak: 0,
      counters: emptyCounters(),
    };
    this.sessions.set(id, record);
    return Promise.resolve(structuredClone(record));
  }

  getSession(id: string): Promise<SessionRecord | undefined> {
    const record = this.sessions.get(id);
    return Promise.resolve(record && structuredClone(record));
  }

  appendMessages(sessionId: string, messages: readonly AppendableMessage[]): Promise<number[]> {
    const session = this.sessions.get(sessionId);
    if (!session) return Promise.reject(sessionNotFoundError(sessionId));
    const ids = messages.map((item) => {
      const input = toAppendInput(item);
      const known = this.written.get(input.message);
      if (known !== undefined) return known;
      session.counters.messages += 1;
      if (input.message.role === 'assistant')
        session.counters.toolCalls += input.message.tool_calls?.length ?? 0;
      return this.write(sessionId, item);
    });
    return Promise.resolve(ids);
  }

  private write(sessionId: string, item: AppendableMessage): number {
    const input = toAppendInput(item);
    const id = this.nextId++;
    this.rows.push({
      id,
      sessionId,
      message: structuredClone(input.message),
      apiContent: input.apiContent ?? null,
      finishReason: input.finishReason ?? null,
      tokenCount: input.tokenCount ?? null,
      platformMessageId: input.platformMessageId ?? null,
      createdAt: input.createdAt ?? Date.now(),
      active: true,
      compacted: false,
    });
    this.written.set(input.message, id);
    return id;
  }

  getMessages(sessionId: string, options: GetMessagesOptions = {}): Promise<StoredMessage[]> {
    const rows = this.rows.filter(
      (r) => r.sessionId === sessionId && (options.includeInactive || r.active),
    );
    return Promise.resolve(structuredClone(rows));
  }

  async archiveAndCompact(
    sessionId: string,
    request: CompactionRequest,
  ): Promise<CompactionResult> {
    const session = this.sessions.get(sessionId);
    if (!session) throw sessionNotFoundError(sessionId);
    let target = sessionId;
    if (request.mode === 'child_session') {
      const child = await this.createSession({
        source: session.source,
        parentSessionId: sessionId,
      });
      target = child.id;
      await this.endSession(sessionId, request.endReason ?? 'compression');
    }
    const old = this.rows.filter((r) => r.sessionId === sessionId && r.active);
    for (const row of old) Object.assign(row, { active: false, compacted: true });
    const messageIds = request.replacement.map((item) => this.write(target, item));
    return { sessionId: target, archivedCount: old.length, messageIds };
  }

  search(query: string, options: SearchOptions = {}): Promise<SearchHit[]> {
    const needle = query.trim().toLowerCase();
    if (!needle) return Promise.resolve([]);
    const hits = this.rows
      .filter((r) => !options.sessionId || r.sessionId === options.sessionId)
      .filter((r) => !options.activeOnly || r.active)
      .filter((r) => !options.source || this.sessions.get(r.sessionId)?.source === options.source)
      .map((r) => ({ row: r, text: textOf(r.message) }))
      .filter(({ text }) => text.toLowerCase().includes(needle))
      .map(({ row, text }) => ({
        sessionId: row.sessionId,
        messageId: row.id,
        role: row.message.role,
        snippet: text.slice(0, 120),
        score: 1,
        createdAt: row.createdAt,
        active: row.active,
      }));
    return Promise.resolve(hits.slice(0, options.limit ?? 20));
  }

  endSession(id: string, reason: string): Promise<SessionRecord | undefined> {
    const session = this.sessions.get(id);
    if (session && session.endedAt === null) {
      session.endedAt = Math.max(Date.now(), session.startedAt);
      session.endReason = reason;
    }
    return this.getSession(id);
  }

  override updateSession(id: string, patch: SessionPatch): Promise<SessionRecord | undefined> {
    const session = this.sessions.get(id);
    if (session) Object.assign(session, patch);
    return this.getSession(id);
  }

  override incrementCounters(id: string, delta: CounterDelta): Promise<SessionRecord | undefined> {
    const session = this.sessions.get(id);
    if (session) {
      for (const [key, value] of Object.entries(delta) as [keyof CounterDelta, number][]) {
        session.counters[key] += value;
      }
    }
    return this.getSession(id);
  }

  override listSessions(): Promise<SessionRecord[]> {
    const all = [...this.sessions.values()].filter((s) => !s.archived);
    return Promise.resolve(structuredClone(all.sort((a, b) => b.startedAt - a.startedAt)));
  }
}
