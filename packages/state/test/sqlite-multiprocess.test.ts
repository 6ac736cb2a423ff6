/**
 * Several processes (CLI, gateway, cron) write one state.db at once: four real child processes
 * append concurrently through the built store, each to its own session and all to one shared
 * session, and nothing may be lost or written twice. The writers stop on an event, not a clock:
 * each keeps writing until every one of them has reported {@link TURNS_EACH} turns, so they all
 * overlap however slow the machine is.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openSessionStore, type StoredMessage } from '../src/index.js';
import { builtEntry, startWriter, type WriterReport } from './support/child-writer.harness.js';

const WORKERS = ['w1', 'w2', 'w3', 'w4'];
/** Turns each writer completes while all the others are still writing. */
const TURNS_EACH = 250;
const SHARED = 'shared-session';

type DoneReport = Extract<WriterReport, { type: 'done' }>;

/** The marker each child wrote at the start of every message content. */
function markerOf(row: StoredMessage): string {
  const { content } = row.message;
  if (typeof content !== 'string') throw new Error(`row ${row.id} has non-text content`);
  return content.split(' ')[0] ?? '';
}

/** Asserts `rows` hold `<prefix>0 … <prefix>(count-1)` each exactly once, in id order. */
function expectExactlyOnceInOrder(rows: StoredMessage[], prefix: string, count: number): void {
  const seqs = rows
    .map(markerOf)
    .filter((marker) => marker.startsWith(prefix) && /^\d+$/.test(marker.slice(prefix.length)))
    .map((marker) => Number(marker.slice(prefix.length)));
  expect(seqs).toEqual(Array.from({ length: count }, (_, i) => i));
}

function expectIdsIncrease(rows: StoredMessage[]): void {
  for (let i = 1; i < rows.length; i++) {
    expect(rows[i]?.id).toBeGreaterThan(rows[i - 1]?.id ?? 0);
  }
}

async function runWriters(dbPath: string): Promise<DoneReport[]> {
  const entry = builtEntry();
  const writers = WORKERS.map((worker) =>
    startWriter({
      mode: 'concurrent',
      entry,
      dbPath,
      worker,
      sessionId: `${worker}-own`,
      sharedSessionId: SHARED,
      progressAfterTurns: TURNS_EACH,
    }),
  );
  // Every child opens the database and creates its session before any starts appending.
  await Promise.all(writers.map((w) => w.waitFor((r) => r.type === 'ready')));
  for (const writer of writers) writer.child.stdin.write('go\n');
  // None stops before all have written TURNS_EACH turns.
  await Promise.all(writers.map((w) => w.waitFor((r) => r.type === 'progress')));
  for (const writer of writers) writer.child.stdin.end('stop\n');
  const exits = await Promise.all(writers.map((w) => w.exited));
  for (const exit of exits) expect(exit, exit.stderr).toMatchObject({ code: 0, signal: null });
  return writers.map(
    (w) => w.reports.find((r): r is DoneReport => r.type === 'done') as DoneReport,
  );
}

describe('SQLite store with four writer processes', () => {
  it('loses and duplicates nothing, keeps ids increasing and counters equal to rows', async () => {
    const dbPath = join(process.env.HERMES_HOME ?? '', 'state.db');
    const setup = await openSessionStore({ path: dbPath });
    await setup.createSession({ id: SHARED, source: 'gateway' });
    await setup.close();

    const done = await runWriters(dbPath);

    const store = await openSessionStore({ path: dbPath });
    try {
      const shared = await store.getMessages(SHARED, { includeInactive: true });
      expectIdsIncrease(shared);
      let sharedTotal = 0;
      for (const report of done) {
        expect(report.appends).toBeGreaterThanOrEqual(2 * TURNS_EACH);
        const own = await store.getMessages(`${report.worker}-own`, { includeInactive: true });
        expect(own).toHaveLength(report.own);
        expectIdsIncrease(own);
        expectExactlyOnceInOrder(own, `${report.worker}o`, report.own);
        expectExactlyOnceInOrder(shared, `${report.worker}s`, report.shared);
        const session = await store.getSession(`${report.worker}-own`);
        expect(session?.counters.messages).toBe(own.length);
        expect(session?.counters.toolCalls).toBe(
          own.filter((r) => r.message.role === 'assistant' && r.message.tool_calls).length,
        );
        sharedTotal += report.shared;
      }
      expect(shared).toHaveLength(sharedTotal);
      // The full-text triggers ran for rows written by other processes too.
      const hits = await store.search('w1s0', { sessionId: SHARED });
      expect(hits.map((h) => h.messageId)).toContain(
        shared.find((r) => markerOf(r) === 'w1s0')?.id,
      );
      expect((await store.getSession(SHARED))?.counters.messages).toBe(sharedTotal);
    } finally {
      await store.close();
    }

    const raw = new Database(dbPath, { readonly: true });
    try {
      expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
      // Ids are unique database-wide, and the full-text index holds exactly one entry per row.
      const rows = raw.prepare('SELECT count(*) AS n, count(DISTINCT id) AS d FROM messages').get();
      expect(rows).toMatchObject({ n: expect.any(Number) });
      const { n, d } = rows as { n: number; d: number };
      expect(d).toBe(n);
      expect(raw.prepare('SELECT count(*) AS n FROM messages_fts').get()).toEqual({ n });
    } finally {
      raw.close();
    }
  }, 120_000); // a backstop for a loaded machine; it takes a few seconds
});
