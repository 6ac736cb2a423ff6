/**
 * The non-query search modes: scroll around a message, read a whole session, browse recent
 * sessions. They return real stored messages, never rewritten ones.
 */
import type Database from 'better-sqlite3';
import {
  clampCount,
  MESSAGE_COLUMNS,
  prepared,
  SESSION_SUMMARY_SELECT,
  sessionSummary,
  toMessageView,
  toSessionSummary,
} from './rows.js';
import type { MessageView, ScrollResult, SessionSummary, SessionTranscript } from './schemas.js';

type Db = Database.Database;

/** The largest window a scroll may ask for on either side. */
const MAX_SCROLL_SIDE = 200;

/** Options of {@link scrollSession}. */
export interface ScrollOptions {
  /** Messages before the anchor. Default 5. */
  readonly before?: number;
  /** Messages after the anchor. Default 5. */
  readonly after?: number;
  /** Cut each message's content to this many characters. Default: no cut. */
  readonly maxContentChars?: number;
}

function sideCount(value: number | undefined): number {
  if (value === 0) return 0;
  return clampCount(value, 5, MAX_SCROLL_SIDE);
}

/**
 * Messages of a session around an anchor message, archived rows included, in id order. The
 * anchor is always included. `undefined` when the anchor is not a message of that session.
 */
export function scrollSession(
  db: Db,
  sessionId: string,
  anchorMessageId: number,
  options: ScrollOptions = {},
): ScrollResult | undefined {
  const anchor = prepared(
    db,
    'SELECT 1 AS found FROM messages WHERE id = ? AND session_id = ?',
  ).get(anchorMessageId, sessionId);
  const session = anchor === undefined ? undefined : sessionSummary(db, sessionId);
  if (!session) return undefined;
  const before = sideCount(options.before);
  const after = sideCount(options.after);
  // One row beyond each side tells whether more exist.
  const earlier = prepared(
    db,
    `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE session_id = ? AND id < ? ORDER BY id DESC LIMIT ?`,
  ).all(sessionId, anchorMessageId, before + 1);
  const later = prepared(
    db,
    `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE session_id = ? AND id >= ? ORDER BY id LIMIT ?`,
  ).all(sessionId, anchorMessageId, after + 2);
  const rows = [...earlier.slice(0, before).reverse(), ...later.slice(0, after + 1)];
  return {
    session,
    anchorMessageId,
    messages: rows.map((row) => toMessageView(row, options.maxContentChars)),
    hasEarlier: earlier.length > before,
    hasLater: later.length > after + 1,
  };
}

/** Options of {@link readSession}. */
export interface ReadSessionOptions {
  /** Include archived (compacted) rows. Default `true`: the full original conversation. */
  readonly includeArchived?: boolean;
  /** Cut each message's content to this many characters. Default: no cut. */
  readonly maxContentChars?: number;
}

/** A whole session in id order, or `undefined` when it does not exist. */
export function readSession(
  db: Db,
  sessionId: string,
  options: ReadSessionOptions = {},
): SessionTranscript | undefined {
  const session = sessionSummary(db, sessionId);
  if (!session) return undefined;
  const rows = prepared(
    db,
    `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE session_id = ? AND (? = 1 OR active = 1) ORDER BY id`,
  ).all(sessionId, options.includeArchived === false ? 0 : 1);
  return { session, messages: rows.map((row) => toMessageView(row, options.maxContentChars)) };
}

/**
 * The first or last `count` user/assistant messages of a session with text, archived rows
 * included, in id order. Tool-call-only assistant turns carry no prose, so they are skipped.
 */
export function conversationEdge(
  db: Db,
  sessionId: string,
  edge: 'first' | 'last',
  count: number,
  maxContentChars?: number,
): MessageView[] {
  const order = edge === 'first' ? 'ASC' : 'DESC';
  const rows = prepared(
    db,
    `SELECT ${MESSAGE_COLUMNS} FROM messages
     WHERE session_id = ? AND role IN ('user', 'assistant') AND coalesce(content, '') <> ''
     ORDER BY id ${order} LIMIT ?`,
  ).all(sessionId, count);
  const views = rows.map((row) => toMessageView(row, maxContentChars));
  return edge === 'first' ? views : views.reverse();
}

/** Options of {@link browseRecentSessions}. */
export interface BrowseOptions {
  /** At most this many sessions. Default 20. */
  readonly limit?: number;
  /** Only sessions from this platform (`source`). */
  readonly platform?: string;
  /** Include archived sessions. Default `false`: archived sessions are hidden from listings. */
  readonly includeArchived?: boolean;
}

/** Recent sessions, newest start first. */
export function browseRecentSessions(db: Db, options: BrowseOptions = {}): SessionSummary[] {
  const rows = prepared(
    db,
    `${SESSION_SUMMARY_SELECT}
     WHERE (@platform IS NULL OR s.source = @platform) AND (@includeArchived = 1 OR s.archived = 0)
     ORDER BY s.started_at DESC, s.rowid DESC LIMIT @limit`,
  ).all({
    platform: options.platform ?? null,
    includeArchived: options.includeArchived === true ? 1 : 0,
    limit: clampCount(options.limit, 20, 500),
  });
  return rows.map(toSessionSummary);
}
