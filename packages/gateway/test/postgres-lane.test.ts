/**
 * PostgresSessionLane on a real PostgreSQL: the SessionLane contract (the suite the in-process
 * lane passes), then across processes: two lanes on two connection pools to one database, as two
 * gateway processes have. A holder elsewhere makes a waiter wait; its release, or its connection
 * dying, hands the key over; different keys never block each other.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { PostgresDatabase } from '@hermes/state/postgres';
import { NO_POSTGRES, postgresTestUrl } from '@hermes/testkit/postgres';
import { describe, expect, it } from 'vitest';
import { PostgresSessionLane } from '../src/postgres.js';
import { describeSessionLaneContract } from '../src/testing.js';
import { type PostgresTestDb, usePostgresTestDb } from './support/postgres-test-db.ts';

const POLL_MS = 20;
const lanes: PostgresSessionLane[] = [];
let suiteDb: PostgresTestDb | undefined;

function lane(database: PostgresDatabase, maxConcurrent = 4): PostgresSessionLane {
  const made = new PostgresSessionLane(database, { maxConcurrent, pollMs: POLL_MS });
  lanes.push(made);
  return made;
}

/** Lets the lanes run a few poll rounds (each a server round trip) before "still waiting". */
async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    await suiteDb?.opened()[0]?.query('SELECT 1');
    await sleep(POLL_MS);
  }
}

/** An acquire whose state can be looked at without awaiting it. */
function track(promise: Promise<unknown>) {
  const tracked = {
    state: 'waiting' as 'waiting' | 'granted' | 'rejected',
    error: undefined as unknown,
  };
  promise.then(
    () => {
      tracked.state = 'granted';
    },
    (error: unknown) => {
      tracked.state = 'rejected';
      tracked.error = error;
    },
  );
  return tracked;
}

describe.runIf(postgresTestUrl())(`PostgresSessionLane ${NO_POSTGRES}`, () => {
  suiteDb = usePostgresTestDb('lane', {
    poolSize: 2,
    before: async () => {
      for (const made of lanes.splice(0)) await made.close();
    },
  });
  const { connect, freshSchema } = suiteDb;

  describeSessionLaneContract(
    'PostgresSessionLane',
    async (options) => lane(await connect(freshSchema()), options.maxConcurrent),
    { settle },
  );

  describe('across processes', () => {
    it('makes a waiter elsewhere wait while the key is held, and grants it after release', async () => {
      const schema = freshSchema();
      const a = lane(await connect(schema));
      const b = lane(await connect(schema));
      const held = await a.acquire('chat');
      const waiting = b.acquire('chat');
      const state = track(waiting);
      await settle();
      expect(state.state).toBe('waiting');
      expect(b.isHeld('chat')).toBe(false);
      held.release();
      const lease = await waiting;
      expect(b.isHeld('chat')).toBe(true);
      // Now a waits for b.
      const back = track(a.acquire('chat'));
      await settle();
      expect(back.state).toBe('waiting');
      lease.release();
      await expect.poll(() => back.state, { timeout: 10_000 }).toBe('granted');
    });

    it('never blocks different keys, and same-named keys of other schemas', async () => {
      const schema = freshSchema();
      const a = lane(await connect(schema));
      const b = lane(await connect(schema));
      const other = lane(await connect(freshSchema()));
      await a.acquire('x');
      await expect(b.acquire('y')).resolves.toMatchObject({ key: 'y' });
      await expect(other.acquire('x')).resolves.toMatchObject({ key: 'x' });
    });

    it('hands the key over when the holder connection dies (a killed process)', async () => {
      const schema = freshSchema();
      const admin = await connect(schema);
      const a = lane(await connect(schema, 'lane-holder'));
      const b = lane(await connect(schema));
      await a.acquire('chat');
      const state = track(b.acquire('chat'));
      await settle();
      expect(state.state).toBe('waiting');
      const holders = await admin.query<{ pid: number }>(
        `SELECT DISTINCT a.pid FROM pg_stat_activity a JOIN pg_locks l ON l.pid = a.pid
         WHERE a.application_name = 'lane-holder' AND a.datname = current_database()
           AND l.locktype = 'advisory'`,
      );
      expect(holders).toHaveLength(1);
      await admin.query('SELECT pg_terminate_backend($1)', [holders[0]?.pid]);
      await expect.poll(() => state.state, { timeout: 10_000 }).toBe('granted');
    });

    it('stops waiting on abort and frees the in-process slot', async () => {
      const schema = freshSchema();
      const a = lane(await connect(schema));
      const b = lane(await connect(schema), 1);
      await a.acquire('chat');
      const controller = new AbortController();
      const state = track(b.acquire('chat', controller.signal));
      await settle();
      expect(state.state).toBe('waiting');
      controller.abort();
      await expect.poll(() => state.state, { timeout: 10_000 }).toBe('rejected');
      expect((state.error as Error).name).toBe('AbortError');
      // The only slot is free again.
      (await b.acquire('other')).release();
    });

    it('rejects waiters and new acquires once closed, and frees its locks for others', async () => {
      const schema = freshSchema();
      const a = lane(await connect(schema));
      const b = lane(await connect(schema));
      await a.acquire('chat');
      const waiter = track(a.acquire('chat'));
      const elsewhere = track(b.acquire('chat'));
      await settle();
      await a.close();
      await expect.poll(() => waiter.state, { timeout: 10_000 }).toBe('rejected');
      expect(waiter.error).toMatchObject({ code: 'gateway.lane_closed' });
      await expect(a.acquire('k')).rejects.toMatchObject({ code: 'gateway.lane_closed' });
      await expect.poll(() => elsewhere.state, { timeout: 10_000 }).toBe('granted');
    });

    it('keeps at most one connection per held key plus a few free ones', async () => {
      const a = lane(await connect(freshSchema()), 8);
      const leases = await Promise.all(['1', '2', '3', '4', '5', '6'].map((k) => a.acquire(k)));
      expect(a.connections).toBe(6);
      for (const lease of leases) lease.release();
      await expect.poll(() => a.connections, { timeout: 10_000 }).toBe(4);
      (await a.acquire('again')).release();
      expect(a.connections).toBeLessThanOrEqual(4);
    });
  });
});
