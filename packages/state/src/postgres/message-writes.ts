/**
 * The message-writing transactions on PostgreSQL: idempotent appends and archive-and-compact.
 * Each runs inside the caller's transaction and returns the message objects it wrote, which the
 * caller records as written only after the commit (a rolled-back write must not count).
 *
 * Concurrency between processes: both start by locking the session row (the counter UPDATE, or
 * `SELECT … FOR UPDATE`), so writes to one session are serialized and a session's ids increase in
 * commit order; writes to different sessions run in parallel.
 */
import { randomUUID } from 'node:crypto';
import type { ChatMessage } from '@hermes/protocol';
import { and, eq, sql } from 'drizzle-orm';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { QueryResult, QueryResultRow } from 'pg';
import type { CompactionRequest, CompactionResult } from '../compaction.js';
import { sessionNotFoundError } from '../errors.js';
import { toolCallCount } from '../sqlite/row-mapping.js';
import {
  type AppendableMessage,
  type AppendMessageInput,
  toAppendInput,
} from '../stored-message.js';
import { escapeNul } from './nul-escape.js';
import { messageInsert } from './row-mapping.js';
import { messages, type PgMessageInsert, sessions } from './schema.js';

/** Message objects already written by this store, with their row ids. */
export type WrittenMessages = WeakMap<ChatMessage, number>;

/** What a write transaction produced: its result and the newly written message objects. */
export interface WriteOutcome<T> {
  readonly result: T;
  readonly written: ReadonlyMap<ChatMessage, number>;
}

/** Drizzle over the transaction's connection. */
export type Tx = NodePgDatabase & { readonly $client: Queryable };

/** What a transaction's connection can do: run a statement. */
export interface Queryable {
  query<R extends QueryResultRow>(sql: string, params: unknown[]): Promise<QueryResult<R>>;
}

/** Rows per INSERT statement: bounds the size of one statement's arrays. */
export const ROWS_PER_INSERT = 5000;

/**
 * The message columns and their array types, in the order {@link insertRowsSql} binds them.
 * Rows go in as one array per column through `unnest`: a statement with one parameter per
 * value was several times slower to bind and plan, and is capped at 65,535 parameters.
 */
const INSERT_COLUMNS: readonly (readonly [string, string, (r: PgMessageInsert) => unknown])[] = [
  ['session_id', 'text', (r: PgMessageInsert) => r.sessionId],
  ['role', 'text', (r: PgMessageInsert) => r.role],
  ['content', 'text', (r: PgMessageInsert) => r.content ?? null],
  ['content_is_json', 'boolean', (r: PgMessageInsert) => r.contentIsJson ?? false],
  ['tool_calls', 'text', (r: PgMessageInsert) => r.toolCalls ?? null],
  ['tool_call_id', 'text', (r: PgMessageInsert) => r.toolCallId ?? null],
  ['tool_name', 'text', (r: PgMessageInsert) => r.toolName ?? null],
  ['reasoning', 'text', (r: PgMessageInsert) => r.reasoning ?? null],
  ['reasoning_details', 'text', (r: PgMessageInsert) => r.reasoningDetails ?? null],
  ['api_content', 'text', (r: PgMessageInsert) => r.apiContent ?? null],
  ['finish_reason', 'text', (r: PgMessageInsert) => r.finishReason ?? null],
  ['token_count', 'integer', (r: PgMessageInsert) => r.tokenCount ?? null],
  ['created_at', 'bigint', (r: PgMessageInsert) => r.createdAt],
  ['active', 'boolean', (r: PgMessageInsert) => r.active ?? true],
  ['compacted', 'boolean', (r: PgMessageInsert) => r.compacted ?? false],
  ['platform_message_id', 'text', (r: PgMessageInsert) => r.platformMessageId ?? null],
  ['extra', 'text', (r: PgMessageInsert) => r.extra ?? null],
  ['search_text', 'text', (r: PgMessageInsert) => r.searchText ?? ''],
  ['search_args', 'text', (r: PgMessageInsert) => r.searchArgs ?? ''],
];

const COLUMN_NAMES = INSERT_COLUMNS.map(([name]) => name).join(', ');
/** `INSERT … SELECT` of the rows bound as arrays `$1…$19`, in array order, from `source`. */
function insertSql(source = ''): string {
  return `INSERT INTO messages (${COLUMN_NAMES})
  SELECT ${INSERT_COLUMNS.map(([name]) => `u.${name}`).join(', ')}
  FROM ${source}unnest(${INSERT_COLUMNS.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ')})
    WITH ORDINALITY AS u(${COLUMN_NAMES}, ord)
  ORDER BY u.ord
  RETURNING id`;
}

const INSERT_SQL = insertSql();

const n = INSERT_COLUMNS.length;
/**
 * A whole small append as one statement, so it costs one round trip instead of four (BEGIN,
 * update, insert, COMMIT): the counter update takes the session's row lock and, joined into the
 * insert, doubles as the existence check (no session, no rows). One statement is one transaction.
 */
const APPEND_SQL = `WITH bumped AS (
    UPDATE sessions SET message_count = message_count + $${n + 1},
      tool_call_count = tool_call_count + $${n + 2}
    WHERE id = $${n + 3} RETURNING id)
  ${insertSql('bumped, ')}`;

/** Inserts prepared rows in order and resolves to their ids, in the same order. */
export async function insertMessageRows(
  tx: Tx,
  rows: readonly PgMessageInsert[],
): Promise<number[]> {
  const ids: number[] = [];
  for (let at = 0; at < rows.length; at += ROWS_PER_INSERT) {
    const chunk = rows.slice(at, at + ROWS_PER_INSERT);
    const params = INSERT_COLUMNS.map(([, , value]) => chunk.map(value));
    const result = await tx.$client.query<{ id: number }>(INSERT_SQL, params);
    // Ids follow the ORDER BY (nextval runs row by row); sorting guards the mapping regardless.
    ids.push(...result.rows.map((row) => row.id).sort((a, b) => a - b));
  }
  return ids;
}

function insertRows(
  tx: Tx,
  sessionId: string,
  inputs: readonly AppendMessageInput[],
  now: number,
): Promise<number[]> {
  return insertMessageRows(
    tx,
    inputs.map((input) => messageInsert(sessionId, input, now)),
  );
}

/**
 * Inserts the messages not yet written and bumps the session's counters. The counter update runs
 * first: it takes the session's row lock and doubles as the existence check. Up to
 * {@link ROWS_PER_INSERT} new rows are one statement (atomic on its own, so `tx` may be the pool);
 * a larger append is several statements, which the caller must run in a transaction.
 */
export async function appendRows(
  tx: Tx,
  known: WrittenMessages,
  sessionId: string,
  items: readonly AppendableMessage[],
): Promise<WriteOutcome<number[]>> {
  const inputs = items.map(toAppendInput);
  const fresh: AppendMessageInput[] = [];
  const seen = new Set<ChatMessage>();
  let toolCalls = 0;
  for (const input of inputs) {
    if (known.has(input.message) || seen.has(input.message)) continue;
    seen.add(input.message);
    fresh.push(input);
    toolCalls += toolCallCount(input.message);
  }
  const now = Date.now();
  let ids: number[];
  if (fresh.length > 0 && fresh.length <= ROWS_PER_INSERT) {
    const rows = fresh.map((input) => messageInsert(sessionId, input, now));
    const params = [
      ...INSERT_COLUMNS.map(([, , value]) => rows.map(value)),
      fresh.length,
      toolCalls,
      sessionId,
    ];
    const result = await tx.$client.query<{ id: number }>(APPEND_SQL, params);
    if (result.rows.length === 0) throw sessionNotFoundError(sessionId);
    ids = result.rows.map((row) => row.id).sort((a, b) => a - b);
  } else {
    // Nothing new (the update alone checks the session), or more rows than one statement takes:
    // the caller runs this in a transaction.
    const bumped = await tx
      .update(sessions)
      .set({
        messageCount: sql`${sessions.messageCount} + ${fresh.length}`,
        toolCallCount: sql`${sessions.toolCallCount} + ${toolCalls}`,
      })
      .where(eq(sessions.id, sessionId))
      .returning({ id: sessions.id });
    if (bumped.length === 0) throw sessionNotFoundError(sessionId);
    ids = await insertRows(tx, sessionId, fresh, now);
  }
  const written = new Map<ChatMessage, number>();
  for (const [i, input] of fresh.entries()) written.set(input.message, ids[i] as number);
  const result = inputs.map(
    (input) => known.get(input.message) ?? (written.get(input.message) as number),
  );
  return { result, written };
}

/** Creates the child session of a `child_session` compaction, copying the parent's metadata. */
async function createChild(
  tx: Tx,
  parent: typeof sessions.$inferSelect,
  now: number,
): Promise<string> {
  const id = randomUUID();
  await tx.insert(sessions).values({
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
export async function compactRows(
  tx: Tx,
  sessionId: string,
  request: CompactionRequest,
): Promise<WriteOutcome<CompactionResult>> {
  const [session] = await tx
    .select()
    .from(sessions)
    .where(eq(sessions.id, sessionId))
    .for('update');
  if (!session) throw sessionNotFoundError(sessionId);
  const now = Date.now();
  let target = sessionId;
  if (request.mode === 'child_session') {
    target = await createChild(tx, session, now);
    await endSessionRow(tx, sessionId, request.endReason ?? 'compression', now);
  }
  const archived = await tx
    .update(messages)
    .set({ active: false, compacted: true })
    .where(and(eq(messages.sessionId, sessionId), eq(messages.active, true)));
  const inputs = request.replacement.map(toAppendInput);
  const messageIds = await insertRows(tx, target, inputs, now);
  const written = new Map<ChatMessage, number>();
  for (const [i, input] of inputs.entries()) written.set(input.message, messageIds[i] as number);
  return {
    result: { sessionId: target, archivedCount: archived.rowCount ?? 0, messageIds },
    written,
  };
}

/** Ends a session unless it already ended (the first end time and reason stay). */
export async function endSessionRow(
  tx: Tx,
  id: string,
  reason: string,
  now: number,
): Promise<void> {
  await tx
    .update(sessions)
    .set({
      endedAt: sql`GREATEST(${now}::bigint, ${sessions.startedAt})`,
      endReason: escapeNul(reason),
    })
    .where(and(eq(sessions.id, id), sql`${sessions.endedAt} IS NULL`));
}
