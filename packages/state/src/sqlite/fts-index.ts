/**
 * Batched full-text indexing. Appends leave their rows above the watermark (see
 * `FTS_WATERMARK_SQL` in migrations.ts); this module moves the backlog into the FTS tables in one
 * statement per table, so FTS5 writes one segment per batch instead of one per commit.
 */
import type Database from 'better-sqlite3';
import { backlogInsertSql, FTS_WATERMARK_SQL } from './migrations.js';
import { prepared } from './search/rows.js';

/**
 * Appended rows are indexed in the background shortly after appends stop (see
 * `FTS_IDLE_FLUSH_MS`), before every search, and on close. Only when this many are waiting does an
 * append index them inline, which bounds the backlog of a writer that never goes idle.
 */
export const FTS_BATCH_ROWS = 16_384;

/** Idle time after the last append before the backlog is indexed in its own transaction. */
export const FTS_IDLE_FLUSH_MS = 1_000;

function backlogBounds(db: Database.Database): { from: number; to: number } {
  const row = prepared(
    db,
    `SELECT ${FTS_WATERMARK_SQL} AS from_id, COALESCE((SELECT max(id) FROM messages), 0) AS to_id`,
  ).get() as { from_id: number; to_id: number };
  return { from: row.from_id, to: row.to_id };
}

/**
 * Indexes every message above the watermark and raises it. Call inside a write transaction: the
 * write lock guarantees every id up to `max(id)` is committed, so none is skipped.
 */
export function indexBacklog(db: Database.Database, minimumRows = 1): void {
  const { from, to } = backlogBounds(db);
  if (to - from < minimumRows) return;
  prepared(db, backlogInsertSql('messages_fts')).run({ from, to });
  prepared(db, backlogInsertSql('messages_trigram')).run({ from, to });
  prepared(
    db,
    `INSERT INTO kv(namespace, key, value, updated_at) VALUES ('state', 'fts_indexed_through', @to, @now)
     ON CONFLICT(namespace, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
  ).run({ to: String(to), now: Date.now() });
}

/**
 * Makes everything appended so far searchable: indexes the backlog in its own write transaction.
 * Never fails the caller: on a read-only handle, or when another process holds the write lock
 * past the busy timeout, search proceeds over what is already indexed.
 */
export function flushFtsIndex(db: Database.Database): void {
  if (db.readonly) return;
  const { from, to } = backlogBounds(db);
  if (to <= from) return;
  try {
    db.transaction(() => indexBacklog(db)).immediate();
  } catch {
    // Busy or read-only file: the rows stay in the backlog and are indexed by a later flush.
  }
}

/**
 * The idle-time work after appends pause: index the backlog, then checkpoint the WAL without
 * waiting for readers (PASSIVE), so neither lands inside a later append.
 */
export function idleMaintenance(db: Database.Database): void {
  if (db.readonly) return;
  flushFtsIndex(db);
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Another connection holds the checkpoint; the next idle flush tries again.
  }
}
