/**
 * What keeps search and appends fast at scale: only rows with non-ASCII text enter the trigram
 * index, ASCII word fragments are found by prefix queries, and a term matching more messages than
 * RANKED_CANDIDATES is ranked over its newest matches only (a session-scoped search over all).
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SqliteDatabase } from '../src/sqlite/connection.js';
import { FTS_BATCH_ROWS, flushFtsIndex } from '../src/sqlite/fts-index.js';
import { RANKED_CANDIDATES, searchMessages } from '../src/sqlite/search/search-messages.js';
import { openSessionStore } from '../src/sqlite/sqlite-session-store.js';
import { addMessage, addSession, openSearchDb } from './sqlite-search-support.js';

let db: SqliteDatabase | undefined;
afterEach(() => {
  db?.close();
  db = undefined;
});

function count(table: string): number {
  if (!db) throw new Error('no database open');
  return (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
}

describe('search at scale', () => {
  it('indexes only rows with non-ASCII text in the trigram table', () => {
    db = openSearchDb();
    addSession(db, { id: 's' });
    addMessage(db, 's', { role: 'user', content: 'plain ascii words only' });
    const cjk = addMessage(db, 's', { role: 'user', content: '我们的数据库坏了' });
    addMessage(db, 's', {
      role: 'assistant',
      content: null,
      toolCalls: [{ name: 'search_files', arguments: '{"pattern":"café"}' }],
    });
    flushFtsIndex(db);
    expect(count('messages_fts')).toBe(3);
    expect(count('messages_trigram')).toBe(2);
    expect(searchMessages(db, '数据库').map((hit) => hit.messageId)).toEqual([cjk]);
    // An update that removes the non-ASCII text removes the row from the trigram index.
    db.prepare('UPDATE messages SET content = ? WHERE id = ?').run('now ascii', cjk);
    expect(count('messages_trigram')).toBe(1);
    expect(searchMessages(db, '数据库')).toEqual([]);
  });

  it('finds ASCII word fragments by prefix, and mid-word fragments by LIKE', () => {
    db = openSearchDb();
    addSession(db, { id: 's' });
    const id = addMessage(db, 's', { role: 'user', content: 'the postgresql migration failed' });
    expect(searchMessages(db, 'postgres').map((hit) => hit.messageId)).toEqual([id]);
    expect(searchMessages(db, 'gresql').map((hit) => hit.messageId)).toEqual([id]);
  });

  it('ranks the newest matches of a very common term, and all of them within a session', () => {
    db = openSearchDb();
    addSession(db, { id: 'old' });
    addSession(db, { id: 'new' });
    const oldest = addMessage(db, 'old', { role: 'user', content: 'deploy deploy deploy deploy' });
    const insert = db.transaction(() => {
      for (let i = 0; i < RANKED_CANDIDATES + 50; i++) {
        addMessage(db as SqliteDatabase, 'new', {
          role: 'user',
          content: `deploy step ${i} of the rollout plan`,
        });
      }
    });
    insert();
    const hits = searchMessages(db, 'deploy', { limit: 50 });
    expect(hits).toHaveLength(50);
    // The strongest match is older than the newest RANKED_CANDIDATES matches, so it is not ranked…
    expect(hits.map((hit) => hit.messageId)).not.toContain(oldest);
    // …but a search scoped to its session ranks every match there.
    expect(searchMessages(db, 'deploy', { sessionId: 'old' }).map((h) => h.messageId)).toEqual([
      oldest,
    ]);
  });
});

describe('batched full-text indexing', () => {
  function ftsCount(store: { db: SqliteDatabase }): number {
    return (store.db.prepare('SELECT count(*) AS n FROM messages_fts').get() as { n: number }).n;
  }

  it('indexes appends in batches, yet every append is searchable at once', async () => {
    const store = openSessionStore({ path: join(process.env.HERMES_HOME as string, 'b.db') });
    const session = await store.createSession({ source: 'cli' });
    await store.appendMessages(session.id, [{ role: 'user', content: 'zebra crossing' }]);
    expect(ftsCount(store)).toBe(0); // still in the backlog…
    expect((await store.search('zebra')).length).toBe(1); // …until a search flushes it
    expect(ftsCount(store)).toBe(1);
    const batch = Array.from({ length: FTS_BATCH_ROWS }, (_, i) => ({
      role: 'user' as const,
      content: `row ${i}`,
    }));
    await store.appendMessages(session.id, batch);
    expect(ftsCount(store)).toBe(FTS_BATCH_ROWS + 1); // a full batch is indexed by the append
    await store.close();
  });

  it('indexes a row edited before it was indexed once, with its current text', async () => {
    const path = join(process.env.HERMES_HOME as string, 'c.db');
    const store = openSessionStore({ path });
    const session = await store.createSession({ source: 'cli' });
    const [id] = await store.appendMessages(session.id, [{ role: 'user', content: 'first draft' }]);
    store.db.prepare('UPDATE messages SET content = ? WHERE id = ?').run('final wording', id);
    expect(await store.search('draft')).toEqual([]);
    expect((await store.search('wording')).map((hit) => hit.messageId)).toEqual([id]);
    store.db.prepare('UPDATE messages SET content = ? WHERE id = ?').run('edited again', id);
    expect(await store.search('wording')).toEqual([]);
    expect(ftsCount(store)).toBe(1);
    await store.close();
    // Closing flushed everything; a read-only store searches without writing.
    const reader = openSessionStore({ path, readonly: true });
    expect((await reader.search('edited')).map((hit) => hit.messageId)).toEqual([id]);
    await reader.close();
  });
});
