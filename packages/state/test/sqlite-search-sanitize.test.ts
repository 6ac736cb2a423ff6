import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SqliteDatabase } from '../src/sqlite/connection.js';
import { flushFtsIndex } from '../src/sqlite/fts-index.js';
import { sanitizeFts5Query, searchMessages } from '../src/sqlite/search/index.js';
import { likeContains } from '../src/sqlite/search/sanitize.js';
import { addConversation, addSession, openSearchDb } from './sqlite-search-support.js';

let db: SqliteDatabase;

beforeEach(() => {
  db = openSearchDb();
  addSession(db, { id: 's1' });
  addConversation(db, 's1', [
    'TODO: fix the flaky build',
    'the chat-send handler drops replies',
    'milestone P2.2 is done',
    'C++ templates are hard (problem solved)',
    'hello there, or so they say',
  ]);
});

afterEach(() => db.close());

/** Runs a sanitized expression straight against the real FTS5 table. */
function rawMatch(query: string): number[] {
  const match = sanitizeFts5Query(query);
  if (match === '') return [];
  flushFtsIndex(db);
  const rows = db
    .prepare('SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid')
    .all(match) as { rowid: number }[];
  return rows.map((r) => r.rowid);
}

describe('sanitizeFts5Query', () => {
  it('quotes every term as a phrase and doubles inner quotes', () => {
    expect(sanitizeFts5Query('hello world')).toBe('"hello" "world"');
    expect(sanitizeFts5Query('"unterminated')).toBe('"""unterminated"');
    expect(sanitizeFts5Query('say "hi"')).toBe('"say" """hi"""');
  });

  it('keeps uppercase AND, OR and NOT between two terms as FTS5 operators', () => {
    expect(sanitizeFts5Query('hello AND world')).toBe('"hello" "world"'); // AND is the default
    expect(sanitizeFts5Query('hello OR world')).toBe('"hello" OR "world"');
    expect(sanitizeFts5Query('a NOT b')).toBe('"a" NOT "b"');
    expect(sanitizeFts5Query('deploy* OR ship NOT staging')).toBe(
      '"deploy"* OR "ship" NOT "staging"',
    );
  });

  it.each([
    ['hello AND', '"hello"'],
    ['OR hello', '"hello"'],
    ['NOT', ''],
    ['NOT hello', '"hello"'],
    ['a AND OR b', '"a" "b"'],
    ['a OR -- NOT b', '"a" "b"'],
    ['AND OR NOT', ''],
    ['OR OR a OR OR', '"a"'],
  ])('drops the dangling or repeated operators of %j', (query, expected) => {
    expect(sanitizeFts5Query(query)).toBe(expected);
  });

  it('searches lowercase, quoted and starred operator words as plain words', () => {
    expect(sanitizeFts5Query('salt and pepper')).toBe('"salt" "and" "pepper"');
    expect(sanitizeFts5Query('a Or b')).toBe('"a" "Or" "b"');
    expect(sanitizeFts5Query('"NOT"')).toBe('"""NOT"""');
    expect(sanitizeFts5Query('AND*')).toBe('"AND"*');
  });

  it('keeps a trailing * as a prefix query and drops pieces with no letter or digit', () => {
    expect(sanitizeFts5Query('temp*')).toBe('"temp"*');
    expect(sanitizeFts5Query('***')).toBe('');
    expect(sanitizeFts5Query('  -- ( ) ')).toBe('');
    expect(rawMatch('templ*')).toHaveLength(1);
  });

  it.each([
    'C++',
    '"unterminated',
    '(problem',
    'hello AND',
    '***',
    '{test}',
    'OR hello',
    'NOT',
    'NEAR(a b)',
    'content:hello',
    '^start',
    'a - b',
    "it's",
    '\\',
    'nul\u0000byte',
    'a"b"c',
    'lone \uD800 surrogate',
    '🙂 emoji',
    'x'.repeat(5000),
    Array.from({ length: 100 }, (_, i) => `w${i}`).join(' '),
  ])('%s runs against a real FTS5 table without error', (query) => {
    expect(() => rawMatch(query)).not.toThrow();
    expect(() => searchMessages(db, query)).not.toThrow();
  });

  it('finds the text of operator-like queries as plain words', () => {
    expect(rawMatch('(problem')).toHaveLength(1);
    expect(rawMatch('OR hello')).toHaveLength(1);
    expect(rawMatch('hello AND')).toHaveLength(1); // the dangling AND is dropped
    expect(rawMatch('hello and')).toHaveLength(0); // lowercase "and" is a word, absent here
    expect(rawMatch('C++')).toHaveLength(1);
  });

  it('gives operators between terms their FTS5 meaning', () => {
    expect(rawMatch('flaky OR milestone')).toHaveLength(2);
    expect(rawMatch('flaky AND milestone')).toHaveLength(0);
    expect(rawMatch('the NOT flaky')).toHaveLength(1); // "the chat-send handler…"
    expect(rawMatch('hello OR templates NOT hard')).toHaveLength(1);
  });

  it.each([
    ['TODO: fix', 'TODO: fix the flaky build'],
    ['chat-send', 'the chat-send handler drops replies'],
    ['P2.2', 'milestone P2.2 is done'],
  ])('%s still finds its text', (query, expected) => {
    const hits = searchMessages(db, query);
    expect(hits).toHaveLength(1);
    const text = db
      .prepare('SELECT content FROM messages WHERE id = ?')
      .get(hits[0]?.messageId) as {
      content: string;
    };
    expect(text.content).toBe(expected);
  });

  it('returns no hits (not an error) when nothing searchable is left', () => {
    expect(searchMessages(db, '***')).toEqual([]);
    expect(searchMessages(db, '')).toEqual([]);
    expect(searchMessages(db, '   ')).toEqual([]);
  });
});

describe('likeContains', () => {
  it('escapes %, _ and the escape character', () => {
    expect(likeContains('50%_off\\')).toBe('%50\\%\\_off\\\\%');
  });
});
