/**
 * What every GatewayStore must do, whatever its database: routes, hygiene state, the delivery
 * ledger, cut-off turns, reopening, two connections, closing. Run by the SQLite and PostgreSQL
 * store tests; what only one backend does stays in its own file.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GatewayStore } from '../../src/index.js';

/** Opens stores on one fresh, empty backend per test. */
export interface GatewayStoreBackend {
  /** A store on this test's data; each call is another connection (another process's view). */
  open(): Promise<GatewayStore>;
  /** Drops this test's data (called after every opened store is closed). */
  cleanup?(): Promise<void>;
}

/** A route of `key`. */
export const route = (key: string, sessionId: string, at = 1_000) => ({
  key,
  sessionId,
  platform: 'telegram',
  createdAt: at,
  lastActiveAt: at,
});

/** A reply for the ledger. */
export const delivery = (text: string, createdAt: number, platform = 'telegram') => ({
  sessionKey: `agent:default:${platform}:dm:1`,
  platform,
  target: { chatId: '1', threadId: 't', replyTo: 'm9' },
  text,
  createdAt,
});

/** A running turn. */
export const turn = (sessionKey: string, startedAt: number) => ({
  sessionKey,
  sessionId: `s-${sessionKey}`,
  platform: 'telegram',
  target: { chatId: sessionKey },
  startedAt,
});

/** Registers the shared store suite; `fresh` makes the backend of one test. */
export function describeGatewayStoreSuite(
  label: string,
  fresh: () => Promise<GatewayStoreBackend>,
): void {
  describe(`GatewayStore suite: ${label}`, () => {
    let backend: GatewayStoreBackend;
    const opened: GatewayStore[] = [];
    const open = async () => {
      const store = await backend.open();
      opened.push(store);
      return store;
    };

    beforeEach(async () => {
      backend = await fresh();
    });

    afterEach(async () => {
      for (const store of opened.splice(0)) await store.close();
      await backend.cleanup?.();
    });

    it('stores, touches, replaces and deletes routes', async () => {
      const store = await open();
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
      const store = await open();
      await store.setHygiene('k', { failures: 2, cooldownUntil: 123_456 });
      expect(await store.getHygiene('k')).toEqual({ failures: 2, cooldownUntil: 123_456 });
      await store.setHygiene('k', { failures: 3, cooldownUntil: 200_000 });
      expect(await store.getHygiene('k')).toEqual({ failures: 3, cooldownUntil: 200_000 });
      await store.setHygiene('k', undefined);
      expect(await store.getHygiene('k')).toBeUndefined();
    });

    it('lists the delivery ledger oldest first, records progress, completes and fails', async () => {
      const store = await open();
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

    it('reports the turns of a closed store as cut off, once, oldest first', async () => {
      const first = await open();
      await first.beginTurn(turn('b', 2_000));
      await first.beginTurn(turn('a', 1_000));
      await first.beginTurn(turn('done', 1_500));
      await first.endTurn('done');
      await first.close();
      const second = await open();
      expect(await second.takeCutOffTurns()).toEqual([turn('a', 1_000), turn('b', 2_000)]);
      expect(await second.takeCutOffTurns()).toEqual([]);
    });

    it('keeps everything across a reopen', async () => {
      const first = await open();
      await first.setRoute(route('k', 's1'));
      await first.setHygiene('k', { failures: 1, cooldownUntil: 99 });
      const id = await first.addDelivery(delivery('kept', 1));
      await first.beginTurn({ ...turn('k', 5), sessionId: 's1', target: { chatId: '1' } });
      await first.close();

      const second = await open();
      expect((await second.getRoute('k'))?.sessionId).toBe('s1');
      expect(await second.getHygiene('k')).toEqual({ failures: 1, cooldownUntil: 99 });
      expect((await second.pendingDeliveries()).map((d) => d.id)).toEqual([id]);
      expect((await second.takeCutOffTurns()).map((t) => t.sessionKey)).toEqual(['k']);
    });

    it('sees the writes of a second connection', async () => {
      const a = await open();
      const b = await open();
      const writes: Promise<unknown>[] = [];
      for (let i = 0; i < 50; i++) {
        writes.push(a.addDelivery(delivery(`a${i}`, i * 2)));
        writes.push(b.addDelivery(delivery(`b${i}`, i * 2 + 1)));
      }
      await Promise.all(writes);
      await b.setRoute(route('shared', 's'));
      expect((await a.getRoute('shared'))?.sessionId).toBe('s');
      await b.setHygiene('shared', { failures: 1, cooldownUntil: 7 });
      expect(await a.getHygiene('shared')).toEqual({ failures: 1, cooldownUntil: 7 });
    });

    it('fails clearly after close, and closing twice is fine', async () => {
      const store = await open();
      await store.close();
      await store.close();
      await expect(store.getRoute('k')).rejects.toMatchObject({ code: 'gateway.store_closed' });
    });
  });
}
