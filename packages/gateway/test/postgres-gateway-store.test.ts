/**
 * PostgresGatewayStore on a real PostgreSQL: the shared store suite (one schema per test, a new
 * owner per open, as a restarted process would be), then what several live gateway processes on
 * one database need: a live peer's turns and replies are never taken; a closed or killed peer's
 * are, once, by one survivor.
 */
import type { PostgresDatabase } from '@hermes/state/postgres';
import { NO_POSTGRES, postgresTestUrl } from '@hermes/testkit/postgres';
import { afterEach, describe, expect, it } from 'vitest';
import { PostgresGatewayStore } from '../src/postgres.js';
import { delivery, describeGatewayStoreSuite, turn } from './support/gateway-store-suite.js';
import { usePostgresTestDb } from './support/postgres-test-db.ts';

let owners = 0;

/** A process's connection to this test's schema (its own pool, as another process has). */

const freshOwner = (name: string) => {
  owners += 1;
  return `${name}-${owners}`;
};

describe.runIf(postgresTestUrl())(`PostgresGatewayStore ${NO_POSTGRES}`, () => {
  const { connect, freshSchema } = usePostgresTestDb('gw', { poolSize: 4 });

  describeGatewayStoreSuite('PostgreSQL', async () => {
    const database = await connect(freshSchema());
    return { open: () => PostgresGatewayStore.open(database, { owner: freshOwner('gw') }) };
  });

  describe('several processes on one database', () => {
    const opened: PostgresGatewayStore[] = [];
    const open = async (database: PostgresDatabase, name: string) => {
      const store = await PostgresGatewayStore.open(database, { owner: freshOwner(name) });
      opened.push(store);
      return store;
    };

    afterEach(async () => {
      for (const store of opened.splice(0)) await store.close();
    });

    /** Kills `applicationName`'s connections that hold advisory locks, as a dead process's. */
    async function killLockHolders(admin: PostgresDatabase, applicationName: string) {
      // Pick first, then terminate: a WHERE clause would not fix the order of evaluation.
      const holders = await admin.query<{ pid: number }>(
        `SELECT DISTINCT a.pid FROM pg_stat_activity a JOIN pg_locks l ON l.pid = a.pid
         WHERE a.application_name = $1 AND a.datname = current_database()
           AND l.locktype = 'advisory'`,
        [applicationName],
      );
      expect(holders.length).toBeGreaterThan(0);
      for (const { pid } of holders) {
        await admin.query('SELECT pg_terminate_backend($1)', [pid]);
        // Termination is a signal: wait until the backend is gone and its locks with it.
        await expect
          .poll(
            async () =>
              (
                await admin.query<{ n: number }>(
                  `SELECT (SELECT count(*) FROM pg_locks WHERE pid = $1)
                     + (SELECT count(*) FROM pg_stat_activity WHERE pid = $1) AS n`,
                  [pid],
                )
              )[0]?.n,
            { timeout: 10_000 },
          )
          .toBe(0);
      }
    }

    it('never reports a live peer turn as cut off; does once the peer closes', async () => {
      const schema = freshSchema();
      const a = await open(await connect(schema), 'a');
      const b = await open(await connect(schema), 'b');
      await a.beginTurn(turn('chat-a', 1));
      await b.beginTurn(turn('chat-b', 2));
      expect(await b.takeCutOffTurns()).toEqual([]);
      expect(await a.takeCutOffTurns()).toEqual([]);
      await a.close();
      expect(await b.takeCutOffTurns()).toEqual([turn('chat-a', 1)]);
      expect(await b.takeCutOffTurns()).toEqual([]);
      // b's own running turn is still recorded: it ends normally.
      const c = await open(await connect(schema), 'c');
      expect(await c.takeCutOffTurns()).toEqual([]);
    });

    it('reports the turns of a peer whose lock connection died', async () => {
      const schema = freshSchema();
      const admin = await connect(schema);
      const a = await open(await connect(schema, 'gateway-a'), 'a');
      const b = await open(await connect(schema), 'b');
      await a.beginTurn(turn('chat-a', 1));
      expect(await b.takeCutOffTurns()).toEqual([]);
      await killLockHolders(admin, 'gateway-a');
      expect(await b.takeCutOffTurns()).toEqual([turn('chat-a', 1)]);
    });

    it('keeps each live owner ledger to itself and hands a dead one to exactly one survivor', async () => {
      const schema = freshSchema();
      const a = await open(await connect(schema), 'a');
      const b = await open(await connect(schema), 'b');
      const c = await open(await connect(schema), 'c');
      const fromA: string[] = [];
      for (let i = 0; i < 20; i++) fromA.push(await a.addDelivery(delivery(`a${i}`, i)));
      const fromB = await b.addDelivery(delivery('b', 100));
      expect((await b.pendingDeliveries()).map((d) => d.id)).toEqual([fromB]);
      expect((await c.pendingDeliveries()).map((d) => d.id)).toEqual([]);
      await a.close();
      const [seenByB, seenByC] = await Promise.all([b.pendingDeliveries(), c.pendingDeliveries()]);
      const takenByB = seenByB.map((d) => d.id).filter((id) => id !== fromB);
      const takenByC = seenByC.map((d) => d.id);
      // Every reply of a is taken over once: all by one survivor, none by both.
      expect([...takenByB, ...takenByC].sort()).toEqual([...fromA].sort());
      expect(takenByB.length === 0 || takenByC.length === 0).toBe(true);
      const winner = takenByB.length > 0 ? b : c;
      const loser = winner === b ? c : b;
      expect((await winner.pendingDeliveries()).map((d) => d.text)).toEqual(
        winner === b ? [...fromA.map((_, i) => `a${i}`), 'b'] : fromA.map((_, i) => `a${i}`),
      );
      expect((await loser.pendingDeliveries()).filter((d) => fromA.includes(d.id))).toEqual([]);
    });

    it('takes over only the asked platform of a dead owner', async () => {
      const schema = freshSchema();
      const a = await open(await connect(schema), 'a');
      const b = await open(await connect(schema), 'b');
      const tg = await a.addDelivery(delivery('tg', 1));
      const dc = await a.addDelivery(delivery('dc', 2, 'discord'));
      await a.close();
      expect((await b.pendingDeliveries('discord')).map((d) => d.id)).toEqual([dc]);
      expect((await b.pendingDeliveries()).map((d) => d.id)).toEqual([tg, dc]);
    });

    it('refuses an owner name a live process already uses, and the closed name again works', async () => {
      const schema = freshSchema();
      const database = await connect(schema);
      const first = await PostgresGatewayStore.open(database, { owner: 'same' });
      opened.push(first);
      await expect(PostgresGatewayStore.open(database, { owner: 'same' })).rejects.toMatchObject({
        code: 'gateway.store_owner_taken',
      });
      await first.close();
      opened.push(await PostgresGatewayStore.open(database, { owner: 'same' }));
    });

    it('records its migrations once under the gateway component and leaves the database open', async () => {
      const schema = freshSchema();
      const database = await connect(schema);
      await (await open(database, 'a')).close();
      await (await open(database, 'b')).close();
      const rows = await database.query<{ component: string; version: number }>(
        'SELECT component, version FROM hermes_migrations ORDER BY version',
      );
      expect(rows).toEqual([{ component: 'gateway', version: 1 }]);
    });

    it('skips a ledger row whose JSON target no longer fits, keeping the others', async () => {
      const schema = freshSchema();
      const database = await connect(schema);
      const a = await open(database, 'a');
      const good = await a.addDelivery(delivery('good', 1));
      const bad = await a.addDelivery(delivery('bad', 2));
      await database.query(`UPDATE gateway_deliveries SET target = '{"chat": 1}' WHERE id = $1`, [
        bad,
      ]);
      expect((await a.pendingDeliveries()).map((d) => d.id)).toEqual([good]);
    });
  });
});
