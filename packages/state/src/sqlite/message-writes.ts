/**
 * The message-writing transactions: idempotent appends and archive-and-compact. Each runs inside
 * a caller's write transaction and returns the message objects it wrote, which the caller records
 * as written only after the commit (a rolled-back write must not count).
 */
import { randomUUID } from 'node:crypto';
import type { ChatMessage } from '@hermes/protocol';
import type { CompactionRequest, CompactionResult } from '../compaction.js';
import { sessionNotFoundError } from '../errors.js';
import { type AppendableMessage, toAppendInput } from '../stored-message.js';
import { messageParams, toolCallCount } from './row-mapping.js';
import type { SessionRow } from './schema.js';
import type { Statements } from './statements.js';

/** Message objects already written by this store, with their row ids. */
export type WrittenMessages = WeakMap<ChatMessage, number>;

/** What a write transaction produced: its result and the newly written message objects. */
export interface WriteOutcome<T> {
  readonly result: T;
  readonly written: ReadonlyMap<ChatMessage, number>;
}

function requireSession(stmts: Statements, sessionId: string): SessionRow {
  const row = stmts.getSession.get(sessionId) as SessionRow | undefined;
  if (!row) throw sessionNotFoundError(sessionId);
  return row;
}

/**
 * Inserts the messages not yet written and bumps the session's counters. The counter update runs
 * first and doubles as the existence check (no separate SELECT per append): when it touches no
 * row the session is missing, and nothing has been inserted.
 */
export function appendRows(
  stmts: Statements,
  known: WrittenMessages,
  sessionId: string,
  items: readonly AppendableMessage[],
): WriteOutcome<number[]> {
  const inputs = items.map(toAppendInput);
  const fresh = new Set(inputs.map((input) => input.message).filter((m) => !known.has(m)));
  let toolCalls = 0;
  for (const message of fresh) toolCalls += toolCallCount(message);
  const bumped = stmts.bumpAppendCounters.run({ id: sessionId, messages: fresh.size, toolCalls });
  if (bumped.changes === 0) throw sessionNotFoundError(sessionId);
  const written = new Map<ChatMessage, number>();
  const now = Date.now();
  const ids = inputs.map((input) => {
    const existing = known.get(input.message) ?? written.get(input.message);
    if (existing !== undefined) return existing;
    const id = Number(
      stmts.insertMessage.run(messageParams(sessionId, input, now)).lastInsertRowid,
    );
    written.set(input.message, id);
    return id;
  });
  return { result: ids, written };
}

function createChild(stmts: Statements, parent: SessionRow, now: number): string {
  const id = randomUUID();
  stmts.insertSession.run({
    id,
    source: parent.source,
    userId: parent.userId,
    sessionKey: parent.sessionKey,
    chatId: parent.chatId,
    threadId: parent.threadId,
    title: parent.title,
    model: parent.model,
    provider: parent.provider,
    systemPromptHash: parent.systemPromptHash,
    parentSessionId: parent.id,
    startedAt: Math.max(now, parent.startedAt),
  });
  return id;
}

/**
 * Archives the session's active rows and writes the replacement as the new active set (in a new
 * child session in `child_session` mode, ending the old one).
 */
export function compactRows(
  stmts: Statements,
  sessionId: string,
  request: CompactionRequest,
): WriteOutcome<CompactionResult> {
  const session = requireSession(stmts, sessionId);
  const now = Date.now();
  let target = sessionId;
  if (request.mode === 'child_session') {
    target = createChild(stmts, session, now);
    stmts.endSession.run({ id: sessionId, now, reason: request.endReason ?? 'compression' });
  }
  const archivedCount = stmts.archiveActive.run(sessionId).changes;
  const written = new Map<ChatMessage, number>();
  const messageIds = request.replacement.map((item) => {
    const input = toAppendInput(item);
    const id = Number(stmts.insertMessage.run(messageParams(target, input, now)).lastInsertRowid);
    written.set(input.message, id);
    return id;
  });
  return { result: { sessionId: target, archivedCount, messageIds }, written };
}
