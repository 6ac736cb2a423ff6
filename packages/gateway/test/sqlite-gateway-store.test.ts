/**
 * SqliteGatewayStore against a real database file in the test's HERMES_HOME: routes, hygiene
 * state, the delivery ledger, in-flight turns, reopening, two connections, its own migrations.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteGatewayStore } from '../src/index.js';

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

const route = (key: string, sessionId: string, at = 1_000) => ({
  key,
  sessionId,
  platform: 'telegram',
  createdAt: at,
  lastActiveAt: at,
});

const delivery = (text: string, createdAt: number, platform = 'telegram') => ({
  sessionKey: `agent:default:${platform}:dm:1`,
  platform,
  target: { chatId: '1', threadId: 't', replyTo: 'm9' },
  text,
  createdAt,
});

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

  it('stores, touches, replaces and deletes routes', async () => {
    const store = open();
    expect(await store.getRoute('k')).toBeUndefined();
    await store.setRoute(route('k', 's1'));
    await store.touchRoute('k', 5_000);
    await store.touchRoute('missing', 5_000);
    expect(await store.getRoute('k')).toEqual({ ...route('k', 's1'), lastActiveAt: 5_000 });
    expect(await store.getRoute('missing')).toBeUndefined();
    await store.setRoute(route('k', 's2', 9_000));
    expect((await store.getRoute('k'))?.sessionId).toBe('s2');
    await store.deleteRoute('k');
    expect(await store.getRoute('k')).toBeUndefined();
  });

  it('replaces and clears hygiene state', async () => {
    const store = open();
    await store.setHygiene('k', { failures: 2, cooldownUntil: 123_456 });
    expect(await store.getHygiene('k')).toEqual({ failures: 2, cooldownUntil: 123_456 });
    await store.setHygiene('k', undefined);
    expect(await store.getHygiene('k')).toBeUndefined();
  });

  it('lists the delivery ledger oldest first, records progress, completes and fails', async () => {
    const store = open();
    const late = await store.addDelivery(delivery('late', 3_000));
    const early = await store.addDelivery(delivery('early', 1_000));
    const same = await store.addDelivery(delivery('same time, added after', 1_000));
    const other = await store.addDelivery(delivery('other platform', 2_000, 'discord'));
    expect(new Set([late, early, same, other]).size).toBe(4);

    const pending = await store.pendingDeliveries();
    expect(pending.map((d) => d.text)).toEqual([
      'early',
      'same time, added after',
      'other platform',
      'late',
    ]);
    expect(pending[0]).toEqual({
      id: early,
      ...delivery('early', 1_000),
      sentParts: 0,
      attempts: 0,
    });
    expect((await store.pendingDeliveries('discord')).map((d) => d.id)).toEqual([other]);

    await store.markDeliveryProgress(late, 2);
    await store.failDelivery(early, 'timeout', false);
    await store.failDelivery(early, 'timeout again', false);
    await store.failDelivery(same, 'chat deleted', true);
    await store.completeDelivery(other);
    const after = await store.pendingDeliveries();
    expect(after.map((d) => [d.text, d.sentParts, d.attempts])).toEqual([
      ['early', 0, 2],
      ['late', 2, 0],
    ]);
  });

  it('returns cut-off turns once and clears them', async () => {
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

  it('keeps everything across a reopen', async () => {
    const first = open();
    await first.setRoute(route('k', 's1'));
    await first.setHygiene('k', { failures: 1, cooldownUntil: 99 });
    const id = await first.addDelivery(delivery('kept', 1));
    await first.beginTurn({
      sessionKey: 'k',
      sessionId: 's1',
      platform: 'telegram',
      target: { chatId: '1' },
      startedAt: 5,
    });
    await first.close();

    const second = open();
    expect((await second.getRoute('k'))?.sessionId).toBe('s1');
    expect(await second.getHygiene('k')).toEqual({ failures: 1, cooldownUntil: 99 });
    expect((await second.pendingDeliveries()).map((d) => d.id)).toEqual([id]);
    expect((await second.takeCutOffTurns()).map((t) => t.sessionKey)).toEqual(['k']);
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

  it('fails clearly after close, and closing twice is fine', async () => {
    const store = open();
    await store.close();
    await store.close();
    await expect(store.getRoute('k')).rejects.toMatchObject({ code: 'gateway.store_closed' });
  });
});
