/**
 * Boolean operators in search, end to end: through the real SQLite store, through every search
 * path (word index, trigram, word-fragment prefix, LIKE), and under random hostile input.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openSessionStore, type SqliteSessionStore } from '../src/index.js';
import type { SqliteDatabase } from '../src/sqlite/connection.js';
import { flushFtsIndex } from '../src/sqlite/fts-index.js';
import { discoverSessions, sanitizeFts5Query, searchMessages } from '../src/sqlite/search/index.js';
import { describeSearchCases } from './search-cases.js';
import {
  addConversation,
  addSession,
  openNoTrigramDb,
  openSearchDb,
} from './sqlite-search-support.js';

const open: { close(): unknown }[] = [];

afterEach(async () => {
  for (const handle of open.splice(0)) await handle.close();
});

/** A real store holding one user message per text, in order, in one session. */
async function storeWith(texts: readonly string[]): Promise<SqliteSessionStore> {
  const store = openSessionStore();
  open.push(store);
  const session = await store.createSession({ source: 'cli' });
  await store.appendMessages(
    session.id,
    texts.map((content) => ({ role: 'user' as const, content })),
  );
  return store;
}

/** The texts of the store's hits for `query`, sorted so the order of equal scores is irrelevant. */
async function found(store: SqliteSessionStore, query: string): Promise<string[]> {
  const hits = await store.search(query);
  const texts = hits.map((hit) => {
    const row = store.db.prepare('SELECT content FROM messages WHERE id = ?').get(hit.messageId);
    return (row as { content: string }).content;
  });
  return texts.sort();
}

// The cases shared with the PostgreSQL store (postgres-search.test.ts).
describeSearchCases('sqlite', async () => openSessionStore());

const WORDS = [
  'hello world',
  'hello there',
  'zebra crossing',
  'goodbye world',
  'ANDROID zebra app',
];

describe('SqliteSessionStore.search with boolean operators', () => {
  it('drops a dangling operator instead of searching for it', async () => {
    const store = await storeWith(WORDS);
    expect(await found(store, 'hello AND')).toEqual(['hello there', 'hello world']);
    expect(await found(store, 'OR hello')).toEqual(['hello there', 'hello world']);
    expect(await found(store, 'NOT')).toEqual([]);
    expect(await found(store, 'AND OR')).toEqual([]);
  });

  it('keeps OR, AND and NOT between terms', async () => {
    const store = await storeWith(WORDS);
    expect(await found(store, 'hello OR zebra')).toEqual([
      'ANDROID zebra app',
      'hello there',
      'hello world',
      'zebra crossing',
    ]);
    expect(await found(store, 'hello NOT world')).toEqual(['hello there']);
    expect(await found(store, 'hello AND world')).toEqual(['hello world']);
    expect(await found(store, 'hello world OR crossing')).toEqual([
      'hello world',
      'zebra crossing',
    ]);
    expect(await found(store, 'hello AND OR world')).toEqual(['hello world']);
  });

  it('never turns an operator into a word-fragment term', async () => {
    const store = await storeWith(WORDS);
    // No word is "zebr", so these fall back to fragment search: AND must not become "AND*".
    expect(await found(store, 'zebr AND')).toEqual(['ANDROID zebra app', 'zebra crossing']);
    expect(await found(store, 'zebr OR hell')).toEqual([
      'ANDROID zebra app',
      'hello there',
      'hello world',
      'zebra crossing',
    ]);
    expect(await found(store, 'ebra NOT crossing')).toEqual(['ANDROID zebra app']); // LIKE
  });

  it('keeps operators in trigram and LIKE searches of CJK text', async () => {
    const store = await storeWith(['我们的数据库坏了', '天气很好', '数据库很重要']);
    expect(await found(store, '数据库 OR 天气很')).toEqual([
      '天气很好',
      '我们的数据库坏了',
      '数据库很重要',
    ]); // trigram
    expect(await found(store, '数据库 NOT 我们的')).toEqual(['数据库很重要']); // trigram
    expect(await found(store, '数据库 NOT 坏了')).toEqual(['数据库很重要']); // LIKE
    expect(await found(store, '天气 OR 坏')).toEqual(['天气很好', '我们的数据库坏了']); // LIKE
    expect(await found(store, '数据库 AND')).toEqual(['我们的数据库坏了', '数据库很重要']);
  });

  it('finds the ASCII rows of an OR the trigram index cannot see', async () => {
    // Only rows with non-ASCII text are in the trigram index.
    const store = await storeWith(['数据库很重要', 'hello world', '天气很好']);
    expect(await found(store, '数据库 OR hello')).toEqual(['hello world', '数据库很重要']);
    expect(await found(store, 'hello OR 数据库')).toEqual(['hello world', '数据库很重要']);
    expect(await found(store, '天气很 NOT hello')).toEqual(['天气很好']);
  });

  it('gives the session_search discovery mode the same meaning', async () => {
    const store = openSessionStore();
    open.push(store);
    for (const text of ['hello world', 'zebra crossing', 'goodbye world']) {
      const session = await store.createSession({ source: 'cli' });
      await store.appendMessages(session.id, [{ role: 'user', content: text }]);
    }
    const result = discoverSessions(store.db, 'hello OR zebra', { limit: 5 });
    const texts = result.sessions.map((s) => s.bestHit.snippet.replace(/>>>|<<</g, '')).sort();
    expect(texts).toEqual(['hello world', 'zebra crossing']);
  });
});

describe('searchMessages with operators on a SQLite without the trigram tokenizer', () => {
  it('applies OR and NOT in the LIKE search', () => {
    const db = openNoTrigramDb();
    open.push(db);
    addSession(db, { id: 's1' });
    addConversation(db, 's1', ['我们的数据库坏了', '天气很好', '数据库很重要']);
    const texts = (query: string) =>
      searchMessages(db, query)
        .map((hit) => hit.snippet.replace(/>>>|<<<|…/g, ''))
        .sort();
    expect(texts('数据库 OR 天气很')).toEqual(['天气很好', '我们的数据库坏了', '数据库很重要']);
    expect(texts('数据库 NOT 我们的')).toEqual(['数据库很重要']);
    expect(texts('NOT 天气')).toEqual(['天气很好']);
  });
});

/** A small deterministic PRNG (mulberry32), so a failing query can be reproduced from its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Pieces that are FTS5 syntax, or become it when glued to their neighbours. */
const HOSTILE_PIECES = [
  'AND',
  'OR',
  'NOT',
  'and',
  'NEAR',
  'NEAR(',
  '(',
  ')',
  '"',
  '""',
  '*',
  '**',
  '-',
  '+',
  '^',
  ':',
  '{',
  '}',
  ',',
  '.',
  '\\',
  "'",
  '\u0000',
  '\t',
  '\n',
  'hello',
  'world',
  'x',
  'a1',
  'content:',
  'AND*',
  '"AND"',
  '数据库',
  '天气',
  '坏',
  '🙂',
  '\uD800',
  '%',
  '_',
  'ab',
];

function hostileQuery(next: () => number): string {
  const length = Math.floor(next() * 8);
  let query = '';
  for (let i = 0; i < length; i += 1) {
    query += HOSTILE_PIECES[Math.floor(next() * HOSTILE_PIECES.length)];
    if (next() < 0.7) query += ' ';
  }
  return query;
}

describe('operators under random hostile input', () => {
  it('always yields a valid FTS5 expression and never makes search throw', () => {
    const db: SqliteDatabase = openSearchDb();
    const noTrigram = openNoTrigramDb();
    open.push(db, noTrigram);
    for (const target of [db, noTrigram]) {
      addSession(target, { id: 's1' });
      addConversation(target, 's1', ['hello world AND more', '数据库 天气 坏了', 'x a1 ab']);
      flushFtsIndex(target);
    }
    const match = db.prepare('SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?');
    const next = random(20261201);
    for (let i = 0; i < 800; i += 1) {
      const query = hostileQuery(next);
      const expression = sanitizeFts5Query(query);
      try {
        if (expression !== '') match.all(expression);
        searchMessages(db, query);
        searchMessages(noTrigram, query);
      } catch (error) {
        throw new Error(`query ${JSON.stringify(query)} → ${expression}: ${String(error)}`);
      }
      // Shape: quoted phrases (each maybe starred) joined by a space or one operator.
      expect(expression).toMatch(
        /^(?:"(?:[^"]|"")*"\*?(?:(?: | OR | NOT )"(?:[^"]|"")*"\*?)*)?$/su,
      );
    }
  }, 60_000); // a backstop for a loaded machine; it takes about two seconds
});
