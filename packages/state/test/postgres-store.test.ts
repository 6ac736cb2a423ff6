/**
 * PostgresSessionStore beyond the contract: NUL-safe text, importing a SQLite export (lineage,
 * archived rows, flags, times), and the database ownership of `open` versus `connect`.
 */
import type { ChatMessage } from '@hermes/protocol';
import { PostgresDatabase, PostgresSessionStore } from '@hermes/state/postgres';
import {
  createTestDatabase,
  NO_POSTGRES,
  postgresTestUrl,
  type TestDatabase,
} from '@hermes/testkit/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSessionStore } from '../src/index.js';
import type { SessionExport } from '../src/session-export.js';

/** An export with ids and session ids replaced by their order, for comparing two stores. */
function normalized(doc: SessionExport, names: ReadonlyMap<string, string>): unknown {
  const name = (id: string | null) => (id === null ? null : (names.get(id) ?? id));
  return {
    ...doc,
    session: {
      ...doc.session,
      id: name(doc.session.id),
      parentSessionId: name(doc.session.parentSessionId),
    },
    messages: doc.messages.map((row, i) => ({ ...row, id: i, sessionId: name(row.sessionId) })),
  };
}

describe.runIf(postgresTestUrl())(`PostgresSessionStore ${NO_POSTGRES}`, () => {
  let db: TestDatabase;
  let counter = 0;
  const stores: PostgresSessionStore[] = [];
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    for (const store of stores) await store.close();
    await db?.drop();
  });
  async function fresh(): Promise<PostgresSessionStore> {
    const store = await PostgresSessionStore.connect({ url: db.url, schema: `store_${++counter}` });
    stores.push(store);
    return store;
  }

  it('stores and reads back text containing U+0000 and U+0001 identically', async () => {
    const store = await fresh();
    const nasty = 'PK\u0003\u0004\u0000\u0000 binary \u0001\u0000\u0001\u0001 end\u0000';
    const session = await store.createSession({ source: 'cli', title: `title ${nasty}` });
    const messages: ChatMessage[] = [
      { role: 'user', content: `cat ${nasty}` },
      {
        role: 'assistant',
        content: null,
        reasoning: nasty,
        tool_calls: [
          {
            id: 'c1',
            type: 'function',
            function: { name: 'read', arguments: `{"p":${JSON.stringify(nasty)}}` },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', name: 'read', content: nasty },
      { role: 'user', content: [{ type: 'text', text: nasty }] },
    ];
    await store.appendMessages(session.id, [
      ...messages.slice(0, 3),
      { message: messages[3] as ChatMessage, platformMessageId: `p${nasty}` },
    ]);
    const rows = await store.getMessages(session.id);
    expect(rows.map((row) => row.message)).toEqual(messages);
    expect(rows[3]?.platformMessageId).toBe(`p${nasty}`);
    expect((await store.getSession(session.id))?.title).toBe(`title ${nasty}`);
    await store.saveSystemPrompt('h', nasty);
    expect(await store.getSystemPrompt('h')).toBe(nasty);
    const hits = await store.search('binary');
    expect(hits.map((hit) => hit.messageId)).toContain(rows[0]?.id);
    // The escape is reversible for the escape character itself: an escaped-looking text survives.
    const literal = 'a\u0001 b\u0001\u0001c';
    const [id] = await store.appendMessages(session.id, [{ role: 'user', content: literal }]);
    const back = (await store.getMessages(session.id)).find((row) => row.id === id);
    expect(back?.message.content).toBe(literal);
  });

  it('imports a SQLite export with compaction and a child, equal modulo ids, once', async () => {
    const sqlite = openSessionStore();
    const parent = await sqlite.createSession({ source: 'telegram', title: 'trip', userId: 'u1' });
    await sqlite.appendMessages(parent.id, [
      { role: 'user', content: 'plan a trip to Lisbon' },
      { message: { role: 'assistant', content: 'Sure.' }, finishReason: 'stop', tokenCount: 3 },
    ]);
    await sqlite.archiveAndCompact(parent.id, {
      replacement: [{ role: 'user', content: 'summary: Lisbon trip' }],
    });
    await sqlite.incrementCounters(parent.id, { inputTokens: 100, estimatedCostUsd: 0.25 });
    const { sessionId: child } = await sqlite.archiveAndCompact(parent.id, {
      replacement: [{ role: 'user', content: 'summary again' }],
      mode: 'child_session',
    });
    await sqlite.appendMessages(child, [{ role: 'assistant', content: 'continuing in the child' }]);
    await sqlite.updateSession(child, { archived: true });
    const parentDoc = (await sqlite.export(parent.id)) as SessionExport;
    const childDoc = (await sqlite.export(child)) as SessionExport;
    await sqlite.close();

    const store = await fresh();
    // The child first: lineage has no foreign key, so order does not matter.
    expect(await store.importSession(childDoc)).toBe('imported');
    expect(await store.importSession(parentDoc)).toBe('imported');
    expect(await store.importSession(parentDoc)).toBe('exists');
    const names = new Map([
      [parent.id, 'parent'],
      [child, 'child'],
    ]);
    for (const doc of [parentDoc, childDoc]) {
      const copy = (await store.export(doc.session.id)) as SessionExport;
      expect(copy.messages.map((row) => row.active)).toEqual(doc.messages.map((row) => row.active));
      expect(normalized(copy, names)).toEqual(normalized(doc, names));
    }
    expect(
      (await store.listSessions({ parentSessionId: parent.id, includeArchived: true })).map(
        (s) => s.id,
      ),
    ).toEqual([child]);
    const hits = await store.search('Lisbon');
    expect(hits.length).toBe(2); // the first message and the first summary, both archived
    expect(hits.filter((hit) => hit.active).map((hit) => hit.sessionId)).toEqual([]);
  });

  it('leaves a database given to open() open, and closes its own pool on connect()', async () => {
    const database = await PostgresDatabase.connect({ url: db.url, schema: 'store_owned' });
    const store = await PostgresSessionStore.open(database);
    await store.createSession({ source: 'cli', id: 'kept' });
    await store.close();
    await store.close();
    expect(await database.query('SELECT id FROM sessions')).toEqual([{ id: 'kept' }]);
    // A second open on the same schema does not re-apply the migrations.
    expect(
      await database.migrate(
        'state',
        (await import('@hermes/state/postgres')).SESSION_STORE_MIGRATIONS,
      ),
    ).toEqual([]);
    await database.close();
    const owned = await PostgresSessionStore.connect({ url: db.url, schema: 'store_owned' });
    await owned.close();
    expect(owned.database.pool.ended).toBe(true);
  });

  it('appends more rows in one call than one statement can bind, in order', async () => {
    const store = await fresh();
    const session = await store.createSession({ source: 'cli' });
    const batch = Array.from({ length: 4_500 }, (_, i) => ({
      role: 'user' as const,
      content: `m${i}`,
    }));
    const ids = await store.appendMessages(session.id, batch);
    expect(ids).toHaveLength(4_500);
    expect(ids.every((id, i) => i === 0 || id > (ids[i - 1] ?? 0))).toBe(true);
    const rows = await store.getMessages(session.id);
    expect(rows.map((row) => row.message.content)).toEqual(batch.map((m) => m.content));
    expect((await store.getSession(session.id))?.counters.messages).toBe(4_500);
  });

  it('rejects a duplicate id and writes to unknown sessions with state errors', async () => {
    const store = await fresh();
    await store.createSession({ source: 'cli', id: 'dup' });
    await expect(store.createSession({ source: 'cli', id: 'dup' })).rejects.toMatchObject({
      code: 'state.session_exists',
    });
    await expect(
      store.appendMessages('nope', [{ role: 'user', content: 'x' }]),
    ).rejects.toMatchObject({
      code: 'state.session_not_found',
    });
    await expect(store.archiveAndCompact('nope', { replacement: [] })).rejects.toMatchObject({
      code: 'state.session_not_found',
    });
  });
});
