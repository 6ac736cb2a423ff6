import { afterEach, describe, expect, it } from 'vitest';
import type { SqliteDatabase } from '../src/sqlite/connection.js';
import { searchMessages, trigramAvailable } from '../src/sqlite/search/index.js';
import { addMessage, addSession, openNoTrigramDb, openSearchDb } from './sqlite-search-support.js';

let db: SqliteDatabase | undefined;

afterEach(() => {
  db?.close();
  db = undefined;
});

function fresh(): SqliteDatabase {
  db = openSearchDb();
  addSession(db, { id: 's1' });
  return db;
}

describe('searchMessages ranking and fields', () => {
  it('ranks the row with more matches first, with a marked snippet and positive scores', () => {
    const d = fresh();
    const weak = addMessage(d, 's1', {
      role: 'user',
      content: 'one mention of kubernetes among many other words here',
    });
    const strong = addMessage(d, 's1', {
      role: 'assistant',
      content: 'kubernetes kubernetes kubernetes',
    });
    addMessage(d, 's1', { role: 'user', content: 'nothing relevant' });
    const hits = searchMessages(d, 'kubernetes');
    expect(hits.map((h) => h.messageId)).toEqual([strong, weak]);
    expect(hits[0]?.score).toBeGreaterThan(hits[1]?.score ?? Number.POSITIVE_INFINITY);
    expect(hits[1]?.snippet).toContain('>>>kubernetes<<<');
    expect(hits[0]).toMatchObject({
      sessionId: 's1',
      role: 'assistant',
      active: true,
      createdAt: 2000,
    });
  });

  it('honours limit, sessionId, source, roles and activeOnly', () => {
    const d = fresh();
    addSession(d, { id: 's2', source: 'telegram' });
    addMessage(d, 's1', { role: 'user', content: 'deploy the api' });
    addMessage(d, 's1', { role: 'assistant', content: 'deploy done', active: false });
    const other = addMessage(d, 's2', { role: 'user', content: 'deploy again' });
    expect(searchMessages(d, 'deploy')).toHaveLength(3);
    expect(searchMessages(d, 'deploy', { limit: 1 })).toHaveLength(1);
    expect(searchMessages(d, 'deploy', { sessionId: 's2' }).map((h) => h.messageId)).toEqual([
      other,
    ]);
    expect(searchMessages(d, 'deploy', { source: 'telegram' }).map((h) => h.messageId)).toEqual([
      other,
    ]);
    expect(searchMessages(d, 'deploy', { roles: ['assistant'] })).toHaveLength(1);
    expect(searchMessages(d, 'deploy', { activeOnly: true })).toHaveLength(2);
    expect(searchMessages(d, 'deploy', { includeArchived: false })).toHaveLength(2);
  });

  it('finds archived (compacted) rows by default and marks them inactive', () => {
    const d = fresh();
    const old = addMessage(d, 's1', {
      role: 'user',
      content: 'the zeppelin password rotation',
      active: false,
    });
    const hits = searchMessages(d, 'zeppelin');
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ messageId: old, active: false });
  });

  it('finds tool names and tool-call arguments', () => {
    const d = fresh();
    const call = addMessage(d, 's1', {
      role: 'assistant',
      content: null,
      toolCalls: [{ name: 'terminal', arguments: '{"command":"systemctl restart nginx"}' }],
    });
    const result = addMessage(d, 's1', { role: 'tool', content: 'ok', toolName: 'web_extract' });
    expect(searchMessages(d, 'nginx').map((h) => h.messageId)).toEqual([call]);
    expect(searchMessages(d, 'systemctl restart').map((h) => h.messageId)).toEqual([call]);
    expect(searchMessages(d, 'web_extract').map((h) => h.messageId)).toEqual([result]);
  });

  it('searches the text parts of multi-part content', () => {
    const d = fresh();
    const id = addMessage(d, 's1', {
      role: 'user',
      content: [{ type: 'text', text: 'look at this giraffe' }, { type: 'image_url' }],
    });
    expect(searchMessages(d, 'giraffe').map((h) => h.messageId)).toEqual([id]);
  });

  it('falls back to substring search for word fragments', () => {
    const d = fresh();
    const id = addMessage(d, 's1', { role: 'user', content: 'migrating to postgresql soon' });
    expect(searchMessages(d, 'postgres').map((h) => h.messageId)).toEqual([id]);
    expect(searchMessages(d, 'po')).toEqual([]); // too short for a fragment search
  });
});

describe('searchMessages on CJK text', () => {
  it('finds a CJK substring through the trigram index', () => {
    const d = fresh();
    expect(trigramAvailable(d)).toBe(true);
    const id = addMessage(d, 's1', { role: 'user', content: '我们的数据库坏了' });
    addMessage(d, 's1', { role: 'assistant', content: '天气很好' });
    const hits = searchMessages(d, '数据库');
    expect(hits.map((h) => h.messageId)).toEqual([id]);
    expect(hits[0]?.snippet).toContain('数据库');
    expect(searchMessages(d, '数据库？').map((h) => h.messageId)).toEqual([id]);
  });

  it('finds 1–2 character CJK terms with LIKE', () => {
    const d = fresh();
    const id = addMessage(d, 's1', { role: 'user', content: '我们的数据库坏了' });
    addMessage(d, 's1', { role: 'assistant', content: '天气很好' });
    const hits = searchMessages(d, '数据');
    expect(hits.map((h) => h.messageId)).toEqual([id]);
    expect(hits[0]?.snippet).toContain('>>>数据<<<');
    expect(searchMessages(d, '坏').map((h) => h.messageId)).toEqual([id]);
    expect(searchMessages(d, '数据 天气')).toEqual([]); // both terms must occur
  });

  it('matches % and _ literally in LIKE search', () => {
    const d = fresh();
    const id = addMessage(d, 's1', { role: 'user', content: '打折 5%off 了' });
    addMessage(d, 's1', { role: 'user', content: '打折 5xoff 了' });
    expect(searchMessages(d, '折 5%o').map((h) => h.messageId)).toEqual([id]);
    expect(searchMessages(d, '折 5_o')).toEqual([]);
  });
});

describe('searchMessages without the trigram tokenizer', () => {
  it('uses LIKE for CJK of any length, fragments, and tool arguments', () => {
    const d = openNoTrigramDb();
    db = d;
    addSession(d, { id: 's1' });
    expect(trigramAvailable(d)).toBe(false);
    const cjk = addMessage(d, 's1', { role: 'user', content: '我们的数据库坏了，数据库很重要' });
    const other = addMessage(d, 's1', { role: 'user', content: '数据库一次' });
    const call = addMessage(d, 's1', {
      role: 'assistant',
      content: null,
      toolCalls: [{ name: 'terminal', arguments: '{"cmd":"重启数据库"}' }],
    });
    const hits = searchMessages(d, '数据库');
    // More occurrences rank first; ties go to the newer row.
    expect(hits.map((h) => h.messageId)).toEqual([cjk, call, other]);
    expect(hits[0]?.score).toBe(2);
    expect(searchMessages(d, '数据').map((h) => h.messageId)).toContain(cjk);
    const word = addMessage(d, 's1', { role: 'user', content: 'migrating to postgresql soon' });
    expect(searchMessages(d, 'postgresql').map((h) => h.messageId)).toEqual([word]);
    expect(searchMessages(d, 'postgres').map((h) => h.messageId)).toEqual([word]);
  });
});
