/** Reading message and session rows into the views the search modes return. */
import type Database from 'better-sqlite3';
import { z } from 'zod';
import type { MessageView, SessionSummary } from './schemas.js';

type Db = Database.Database;

const statements = new WeakMap<Db, Map<string, Database.Statement>>();

/** A prepared statement, prepared once per database handle and reused. */
export function prepared(db: Db, sql: string): Database.Statement {
  let cache = statements.get(db);
  if (!cache) {
    cache = new Map();
    statements.set(db, cache);
  }
  let statement = cache.get(sql);
  if (!statement) {
    statement = db.prepare(sql);
    cache.set(sql, statement);
  }
  return statement;
}

/** The `messages` columns every view reads. */
export const MESSAGE_COLUMNS =
  'id, role, content, content_is_json, tool_calls, tool_name, created_at, active';

/** A `messages` row as {@link MESSAGE_COLUMNS} selects it. Validated: the file is outside input. */
const MessageRowSchema = z.object({
  id: z.number().int().positive(),
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: z.string().nullable(),
  content_is_json: z.number(),
  tool_calls: z.string().nullable(),
  tool_name: z.string().nullable(),
  created_at: z.number().int().nonnegative(),
  active: z.number(),
});

const PartsSchema = z.array(z.looseObject({ type: z.string(), text: z.string().optional() }));
const ToolCallsSchema = z.array(
  z.looseObject({
    function: z.looseObject({ name: z.string(), arguments: z.string() }),
  }),
);

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Plain text of a stored body: parts joined by newlines, images as `[image]`. */
function contentText(content: string | null, isJson: boolean): string {
  if (content === null) return '';
  if (!isJson) return content;
  const parts = PartsSchema.safeParse(parseJson(content));
  if (!parts.success) return content;
  return parts.data
    .map((part) => (part.type === 'text' ? (part.text ?? '') : '[image]'))
    .join('\n');
}

function toolCallsOf(json: string | null): MessageView['toolCalls'] {
  if (json === null) return [];
  const calls = ToolCallsSchema.safeParse(parseJson(json));
  if (!calls.success) return [];
  return calls.data.map((call) => ({
    name: call.function.name,
    arguments: call.function.arguments,
  }));
}

/** A whole count between 1 and `max`; missing or not a finite number gives `fallback`. */
export function clampCount(value: number | undefined, fallback: number, max: number): number {
  if (value === undefined || !Number.isFinite(value)) return fallback;
  return Math.min(Math.max(Math.trunc(value), 1), max);
}

/** Cuts text to `max` characters when a limit is given. */
export function clip(text: string, max: number | undefined): { text: string; truncated: boolean } {
  if (max === undefined || text.length <= max) return { text, truncated: false };
  return { text: `${text.slice(0, max)}…`, truncated: true };
}

/** Converts a selected `messages` row into a view, cutting content to `maxContentChars`. */
export function toMessageView(row: unknown, maxContentChars?: number): MessageView {
  const r = MessageRowSchema.parse(row);
  const { text, truncated } = clip(
    contentText(r.content, r.content_is_json === 1),
    maxContentChars,
  );
  return {
    id: r.id,
    role: r.role,
    content: text,
    truncated,
    toolName: r.tool_name,
    toolCalls: toolCallsOf(r.tool_calls),
    createdAt: r.created_at,
    active: r.active === 1,
  };
}

const SessionRowSchema = z.object({
  id: z.string().min(1),
  source: z.string(),
  title: z.string().nullable(),
  model: z.string().nullable(),
  parent_session_id: z.string().nullable(),
  started_at: z.number().int().nonnegative(),
  ended_at: z.number().int().nonnegative().nullable(),
  end_reason: z.string().nullable(),
  archived: z.number(),
  message_rows: z.number().int().nonnegative(),
  last_active_at: z.number().int().nonnegative().nullable(),
  preview_content: z.string().nullable(),
  preview_is_json: z.number().nullable(),
});

/** How long a listing's preview of the first user message may be. */
const PREVIEW_CHARS = 200;

/**
 * Selects sessions with the extra columns {@link toSessionSummary} needs; append a WHERE clause.
 * The per-session subqueries use the (session_id, active, id) index.
 */
export const SESSION_SUMMARY_SELECT = `SELECT s.id, s.source, s.title, s.model, s.parent_session_id,
  s.started_at, s.ended_at, s.end_reason, s.archived,
  (SELECT count(*) FROM messages m WHERE m.session_id = s.id) AS message_rows,
  (SELECT max(m.created_at) FROM messages m WHERE m.session_id = s.id) AS last_active_at,
  p.content AS preview_content, p.content_is_json AS preview_is_json
FROM sessions s
LEFT JOIN messages p ON p.id = (SELECT min(m.id) FROM messages m WHERE m.session_id = s.id AND m.role = 'user')`;

/** Converts a row of {@link SESSION_SUMMARY_SELECT} into a summary. */
export function toSessionSummary(row: unknown): SessionSummary {
  const r = SessionRowSchema.parse(row);
  const preview =
    r.preview_content === null ? null : contentText(r.preview_content, r.preview_is_json === 1);
  return {
    id: r.id,
    source: r.source,
    title: r.title,
    model: r.model,
    parentSessionId: r.parent_session_id,
    startedAt: r.started_at,
    endedAt: r.ended_at,
    endReason: r.end_reason,
    archived: r.archived === 1,
    messageCount: r.message_rows,
    lastActiveAt: Math.max(r.last_active_at ?? r.started_at, r.started_at),
    preview: preview === null ? null : clip(preview, PREVIEW_CHARS).text,
  };
}

/** The summary of one session, or `undefined` when it does not exist. */
export function sessionSummary(db: Db, sessionId: string): SessionSummary | undefined {
  const row = prepared(db, `${SESSION_SUMMARY_SELECT} WHERE s.id = ?`).get(sessionId);
  return row === undefined ? undefined : toSessionSummary(row);
}
