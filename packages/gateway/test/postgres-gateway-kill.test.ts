/**
 * A real gateway process on PostgreSQL, killed with SIGKILL while it runs a turn, owes a reply
 * and holds a session lane: the survivor (this process) reports the turn as cut off, takes the
 * reply over, and gets the lane, all only after the kill.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { PostgresDatabase } from '@hermes/state/postgres';
import {
  createTestDatabase,
  NO_POSTGRES,
  postgresTestUrl,
  type TestDatabase,
} from '@hermes/testkit/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InFlightTurn } from '../src/index.js';
import { PostgresGatewayStore, PostgresSessionLane } from '../src/postgres.js';

const script = fileURLToPath(new URL('./support/postgres-gateway-child.mjs', import.meta.url));

/** Starts the child and resolves once it reports `ready` (or rejects when it exits first). */
async function startChild(config: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, [script, JSON.stringify(config)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const ready = new Promise<void>((resolve) => {
    lines.on('line', (line) => {
      if (line.includes('"ready"')) resolve();
    });
  });
  const exited = once(child, 'exit').then(() => {
    throw new Error(`the child exited before it was ready: ${stderr}`);
  });
  await Promise.race([ready, exited]);
  return child;
}

let testDb: TestDatabase;

describe.runIf(postgresTestUrl())(`A killed gateway process on PostgreSQL ${NO_POSTGRES}`, () => {
  beforeAll(async () => {
    testDb = await createTestDatabase();
  });

  afterAll(async () => {
    await testDb?.drop();
  });

  it('leaves its turn, its reply and its lane to a survivor only once it is dead', async () => {
    const schema = 'killed';
    const database = await PostgresDatabase.connect({ url: testDb.url, schema });
    const child = await startChild({ url: testDb.url, schema, owner: 'child-1', key: 'chat' });
    const store = await PostgresGatewayStore.open(database, { owner: 'survivor-1' });
    const lane = new PostgresSessionLane(database, { maxConcurrent: 2, pollMs: 20 });
    try {
      expect(await store.takeCutOffTurns()).toEqual([]);
      expect(await store.pendingDeliveries()).toEqual([]);
      let granted = false;
      const waiting = lane.acquire('chat').then((lease) => {
        granted = true;
        return lease;
      });
      // Another key is free meanwhile; the child's key is not.
      (await lane.acquire('other')).release();
      expect(granted).toBe(false);

      const exit = once(child, 'exit');
      child.kill('SIGKILL');
      await exit;
      const lease = await waiting;
      expect(lease.key).toBe('chat');
      // Each backend of the child exits on its own; poll until its liveness lock is gone too.
      const turns: InFlightTurn[] = [];
      await expect
        .poll(
          async () => {
            turns.push(...(await store.takeCutOffTurns()));
            return turns.length;
          },
          { timeout: 10_000 },
        )
        .toBe(1);
      expect(turns.map((turn) => turn.sessionKey)).toEqual(['chat']);
      const replies = await store.pendingDeliveries();
      expect(replies.map((r) => r.text)).toEqual(['reply of child-1']);
      lease.release();
    } finally {
      child.kill('SIGKILL');
      await lane.close();
      await store.close();
      await database.close();
    }
  });
});
