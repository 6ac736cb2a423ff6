/**
 * Two real processes append through their own PostgresSessionStore (own pools) to their own
 * sessions and to one shared session at once: no row may be lost or written twice, and every
 * session's ids increase in write order. The children start together on a `go` line and each
 * writes a fixed number of turns, so they overlap by construction, not by timing.
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { PostgresSessionStore } from '@hermes/state/postgres';
import {
  createTestDatabase,
  NO_POSTGRES,
  postgresTestUrl,
  type TestDatabase,
} from '@hermes/testkit/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredMessage } from '../src/stored-message.js';
import { builtEntry } from './support/child-writer.harness.js';

const TURNS = 200;
const SCHEMA = 'concurrent';
const SHARED = 'shared';

/** The child: appends `turns` turns (2 rows to its own session, 1 to the shared one). */
const CHILD = `
import { createInterface } from 'node:readline';
const { entry, url, schema, worker, shared, turns } = JSON.parse(process.argv[1]);
const { PostgresSessionStore } = await import(entry);
const store = await PostgresSessionStore.connect({ url, schema, poolSize: 2 });
const own = (await store.createSession({ source: 'test', id: worker + '-own' })).id;
const input = createInterface({ input: process.stdin });
const lines = input[Symbol.asyncIterator]();
console.log(JSON.stringify({ type: 'ready' }));
await lines.next();
let last = 0;
for (let i = 0; i < turns; i++) {
  const ids = await store.appendMessages(own, [
    { role: 'user', content: worker + 'o' + (2 * i) + ' question' },
    { role: 'assistant', content: worker + 'o' + (2 * i + 1) + ' answer' },
  ]);
  for (const id of ids) { if (id <= last) throw new Error('ids went back: ' + id); last = id; }
  await store.appendMessages(shared, [{ role: 'user', content: worker + 's' + i + ' shared' }]);
}
console.log(JSON.stringify({ type: 'done' }));
await store.close();
input.close(); // stdin would keep the process alive
`;

interface Child {
  readonly ready: Promise<void>;
  readonly exited: Promise<{ code: number | null; stderr: string }>;
  go(): void;
}

function startChild(config: Record<string, unknown>): Child {
  const child = spawn(
    process.execPath,
    ['--input-type=module', '-e', CHILD, JSON.stringify(config)],
    {
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve) => {
    child.on('exit', (code) => resolve({ code, stderr }));
  });
  const ready = new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.includes('"ready"')) resolve();
    });
    void exited.then(({ stderr: err }) => reject(new Error(`child exited early: ${err}`)));
  });
  return { ready, exited, go: () => child.stdin.end('go\n') };
}

function markers(rows: readonly StoredMessage[], prefix: string): number[] {
  return rows
    .map((row) => String(row.message.content).split(' ')[0] ?? '')
    .filter((marker) => marker.startsWith(prefix))
    .map((marker) => Number(marker.slice(prefix.length)));
}

function expectIncreasing(rows: readonly StoredMessage[]): void {
  for (let i = 1; i < rows.length; i++) {
    expect(rows[i]?.id).toBeGreaterThan(rows[i - 1]?.id ?? 0);
  }
}

describe.runIf(postgresTestUrl())(`PostgresSessionStore across processes ${NO_POSTGRES}`, () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db?.drop());

  it('loses and duplicates nothing when two processes append at once', async () => {
    const store = await PostgresSessionStore.connect({ url: db.url, schema: SCHEMA });
    try {
      await store.createSession({ source: 'test', id: SHARED });
      const entry = pathToFileURL(join(dirname(builtEntry()), 'postgres.js')).href;
      const workers = ['p1', 'p2'];
      const children = workers.map((worker) =>
        startChild({ entry, url: db.url, schema: SCHEMA, worker, shared: SHARED, turns: TURNS }),
      );
      await Promise.all(children.map((child) => child.ready));
      for (const child of children) child.go();
      const exits = await Promise.all(children.map((child) => child.exited));
      for (const exit of exits) expect(exit, exit.stderr).toMatchObject({ code: 0 });

      const shared = await store.getMessages(SHARED);
      expect(shared).toHaveLength(2 * TURNS);
      expectIncreasing(shared);
      for (const worker of workers) {
        const own = await store.getMessages(`${worker}-own`);
        expectIncreasing(own);
        expect(markers(own, `${worker}o`)).toEqual(Array.from({ length: 2 * TURNS }, (_, i) => i));
        expect(markers(shared, `${worker}s`)).toEqual(Array.from({ length: TURNS }, (_, i) => i));
        expect((await store.getSession(`${worker}-own`))?.counters.messages).toBe(2 * TURNS);
      }
      expect((await store.getSession(SHARED))?.counters.messages).toBe(2 * TURNS);
      // The writers really overlapped: the shared session interleaves both.
      const owners = shared.map((row) => String(row.message.content).slice(0, 2));
      const switches = owners.filter((owner, i) => i > 0 && owner !== owners[i - 1]).length;
      expect(switches).toBeGreaterThan(1);
    } finally {
      await store.close();
    }
  });
});
