/**
 * SqliteGatewayStore against a real database file in the test's HERMES_HOME: the shared store
 * suite (routes, hygiene state, the delivery ledger, in-flight turns, reopening, two
 * connections), then what only SQLite does: the file, its own migrations, one shared ledger.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteGatewayStore } from '../src/index.js';
import { delivery, describeGatewayStoreSuite, route } from './support/gateway-store-suite.js';

const home = () => process.env.HERMES_HOME ?? '';
const opened: SqliteGatewayStore[] = [];

function open(): SqliteGatewayStore {
  const store = SqliteGatewayStore.open({ hermesHome: home() });
  opened.push(store);
  return store;
}

afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
});

describeGatewayStoreSuite('SQLite', async () => ({
  open: async () => SqliteGatewayStore.open({ hermesHome: home() }),
}));

describe('SqliteGatewayStore', () => {
  it('keeps its tables in HERMES_HOME/state.db with a migration table of its own', async () => {
    open();
    const path = join(home(), 'state.db');
    expect(existsSync(path)).toBe(true);
    const raw = new Database(path, { readonly: true });
    try {
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
      const versions = raw.prepare('SELECT version FROM gateway_migrations').pluck().all();
      expect(versions).toEqual([1]);
      // The session store's schema version is not ours to move.
      expect(raw.pragma('user_version', { simple: true })).toBe(0);
    } finally {
      raw.close();
    }
  });

  it('returns its own cut-off turns once and clears them (one process per file)', async () => {
    const store = open();
    const turn = (sessionKey: string, startedAt: number) => ({
      sessionKey,
      sessionId: `s-${sessionKey}`,
      platform: 'telegram',
      target: { chatId: sessionKey },
      startedAt,
    });
    await store.beginTurn(turn('b', 2_000));
    await store.beginTurn(turn('a', 1_000));
    await store.beginTurn(turn('done', 1_500));
    await store.endTurn('done');
    expect(await store.takeCutOffTurns()).toEqual([turn('a', 1_000), turn('b', 2_000)]);
    expect(await store.takeCutOffTurns()).toEqual([]);
  });

  it('sees the writes of a second connection to the same file', async () => {
    const a = open();
    const b = SqliteGatewayStore.open({ path: join(home(), 'state.db') });
    opened.push(b);
    const writes: Promise<unknown>[] = [];
    for (let i = 0; i < 50; i++) {
      writes.push(a.addDelivery(delivery(`a${i}`, i * 2)));
      writes.push(b.addDelivery(delivery(`b${i}`, i * 2 + 1)));
    }
    await Promise.all(writes);
    const fromA = (await a.pendingDeliveries()).map((d) => d.text);
    expect(fromA).toHaveLength(100);
    expect(fromA.slice(0, 4)).toEqual(['a0', 'b0', 'a1', 'b1']);
    expect((await b.pendingDeliveries()).map((d) => d.text)).toEqual(fromA);
    await b.setRoute(route('shared', 's'));
    expect((await a.getRoute('shared'))?.sessionId).toBe('s');
  });

  it('refuses a database whose gateway schema is newer than this build', async () => {
    await open().close();
    const raw = new Database(join(home(), 'state.db'));
    raw.prepare("INSERT INTO gateway_migrations VALUES (99, 'from the future', 0)").run();
    raw.close();
    expect(() => open()).toThrow(expect.objectContaining({ code: 'gateway.store_schema_too_new' }));
  });

  it('refuses a file that is not SQLite, leaving it untouched', async () => {
    const path = join(home(), 'not-a-db.db');
    const { writeFileSync, readFileSync } = await import('node:fs');
    writeFileSync(path, 'hello, I am a text file\n'.repeat(10));
    expect(() => SqliteGatewayStore.open({ path })).toThrow(
      expect.objectContaining({ code: 'gateway.store_open_failed' }),
    );
    expect(readFileSync(path, 'utf8')).toBe('hello, I am a text file\n'.repeat(10));
  });
});
