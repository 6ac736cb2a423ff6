/**
 * A process killed with SIGKILL in the middle of writing leaves a database that opens clean with
 * every committed row present: a child appends in a tight loop, reporting each batch only after
 * `appendMessages` resolved, and is killed mid-stream; five rounds on one database, each killing
 * after a different delay so the signal lands at different points of a batch (checked by hand:
 * with the write transaction removed from the build, most rounds leave a half-written batch).
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openSessionStore, type SessionStore } from '../src/index.js';
import { builtEntry, startWriter, type WriterReport } from './support/child-writer.harness.js';

const ROUNDS = 5;
/** Large enough that most of the child's time is spent inside a write transaction. */
const BATCH = 32;
/** Committed batches to see before the kill. */
const BATCHES_BEFORE_KILL = 20;

type Committed = Extract<WriterReport, { type: 'committed' }>;

/** Runs one child until it has committed enough, SIGKILLs it, and returns what it reported. */
async function killMidStream(entry: string, dbPath: string, sessionId: string, delayMs: number) {
  const writer = startWriter({
    mode: 'crash',
    entry,
    dbPath,
    worker: sessionId,
    sessionId,
    batchSize: BATCH,
  });
  await writer.waitFor((r) => r.type === 'committed' && r.batch >= BATCHES_BEFORE_KILL);
  // Killing straight from the report tends to land between batches; a short delay lands inside.
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  writer.child.kill('SIGKILL');
  const exit = await writer.exited;
  expect(exit.signal, exit.stderr).toBe('SIGKILL');
  return writer.reports.filter((r): r is Committed => r.type === 'committed');
}

function expectIntegrityOk(dbPath: string): void {
  const raw = new Database(dbPath, { readonly: true });
  try {
    expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
  } finally {
    raw.close();
  }
}

/** Every reported id holds its message, and each batch is all there or (in flight) all absent. */
async function expectCommittedPresent(
  store: SessionStore,
  sessionId: string,
  committed: Committed[],
) {
  const rows = await store.getMessages(sessionId, { includeInactive: true });
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const { batch, ids } of committed) {
    ids.forEach((id, i) => {
      const content = byId.get(id)?.message.content;
      expect(typeof content === 'string' ? content.split(' ')[0] : content).toBe(`k${batch}x${i}`);
    });
  }
  const batchSizes = new Map<string, number>();
  for (const row of rows) {
    const batch = String(row.message.content).split('x')[0] ?? '';
    batchSizes.set(batch, (batchSizes.get(batch) ?? 0) + 1);
  }
  expect([...new Set(batchSizes.values())], 'a batch is all there or all absent').toEqual([BATCH]);
  expect(rows.length).toBeGreaterThanOrEqual(committed.length * BATCH);
  expect((await store.getSession(sessionId))?.counters.messages).toBe(rows.length);
  return rows;
}

describe('SQLite store after SIGKILL during writes', () => {
  it('opens clean with every committed row present, round after round', async () => {
    const entry = builtEntry();
    const dbPath = join(process.env.HERMES_HOME ?? '', 'state.db');
    for (let round = 0; round < ROUNDS; round++) {
      const sessionId = `crash-${round}`;
      const committed = await killMidStream(entry, dbPath, sessionId, 1 + 2 * round);
      expect(committed.length).toBeGreaterThan(BATCHES_BEFORE_KILL);
      expectIntegrityOk(dbPath);

      const store = await openSessionStore({ path: dbPath });
      try {
        const rows = await expectCommittedPresent(store, sessionId, committed);
        const last = committed.at(-1) as Committed;
        const hits = await store.search(`k${last.batch}x0`, { sessionId });
        expect(hits.map((h) => h.messageId)).toContain(last.ids[0]);
        // The database stays writable after the crash.
        const [next] = await store.appendMessages(sessionId, [{ role: 'user', content: 'after' }]);
        expect(next).toBeGreaterThan(rows.at(-1)?.id ?? 0);
      } finally {
        await store.close();
      }
    }
  }, 90_000);
});
