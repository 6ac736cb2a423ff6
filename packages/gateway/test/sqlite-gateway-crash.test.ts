/**
 * Real processes against one state.db: a writer SIGKILLed in the middle of its writes leaves a
 * database that opens clean with everything it saw committed, round after round; and a second
 * process writing at the same time as this one loses and duplicates nothing (WAL, busy retry).
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SqliteGatewayStore } from '../src/index.js';
import { startJsonLinesChild } from './support/json-lines-child.js';

const script = fileURLToPath(new URL('./support/gateway-store-child.mjs', import.meta.url));
const ROUNDS = 4;
const STEPS_BEFORE_KILL = 15;
const TEXT_BYTES = 65_536;

type Report =
  | { type: 'committed'; step: number; id: string }
  | { type: 'ready' }
  | { type: 'started' }
  | { type: 'done'; ids: string[] };

const dbPath = () => join(process.env.HERMES_HOME ?? '', 'state.db');

/** Lets a crash child commit enough, waits `delayMs` so the kill lands mid-write, kills it. */
async function killMidStream(worker: string, delayMs: number) {
  const writer = startJsonLinesChild<Report>(script, {
    mode: 'crash',
    path: dbPath(),
    worker,
    textBytes: TEXT_BYTES,
  });
  await writer.waitFor((r) => r.type === 'committed' && r.step >= STEPS_BEFORE_KILL);
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  writer.child.kill('SIGKILL');
  const exit = await writer.exited;
  expect(exit.signal, exit.stderr).toBe('SIGKILL');
  return writer.reports.filter((r) => r.type === 'committed');
}

function expectIntegrityOk(): void {
  const raw = new Database(dbPath(), { readonly: true });
  try {
    expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
  } finally {
    raw.close();
  }
}

describe('SqliteGatewayStore across processes', () => {
  it('opens clean after a writer is SIGKILLed mid-write, with every committed write kept', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const worker = `w${round}`;
      const committed = await killMidStream(worker, 1 + 3 * round);
      expect(committed.length).toBeGreaterThan(STEPS_BEFORE_KILL);
      expectIntegrityOk();

      const store = SqliteGatewayStore.open({ path: dbPath() });
      try {
        const mine = (await store.pendingDeliveries()).filter(
          (d) => d.sessionKey === `k-${worker}`,
        );
        const byId = new Map(mine.map((d) => [d.id, d]));
        for (const { step, id } of committed) {
          const text = byId.get(id)?.text ?? '';
          expect(text.startsWith(`${worker}:${step}:`)).toBe(true);
          expect(text.length).toBe(`${worker}:${step}:`.length + TEXT_BYTES);
          expect((await store.getRoute(`route-${worker}-${step}`))?.sessionId).toBe(`s-${step}`);
        }
        // At most the one step in flight went further than its report; nothing half-written.
        expect(mine.length - committed.length).toBeLessThanOrEqual(1);
        for (const { text } of mine) {
          expect(text).toHaveLength(text.indexOf(':', worker.length + 1) + 1 + TEXT_BYTES);
        }
        const turns = await store.takeCutOffTurns();
        expect(turns.length).toBeGreaterThanOrEqual(committed.length);
        // The database stays writable after the crash.
        await store.setRoute({
          key: 'after',
          sessionId: 's',
          platform: 'p',
          createdAt: 1,
          lastActiveAt: 1,
        });
        expect((await store.getRoute('after'))?.sessionId).toBe('s');
      } finally {
        await store.close();
      }
    }
  }, 120_000);

  it('loses and duplicates nothing while another process writes at the same time', async () => {
    const store = SqliteGatewayStore.open({ path: dbPath() });
    const other = startJsonLinesChild<Report>(script, {
      mode: 'concurrent',
      path: dbPath(),
      worker: 'child',
    });
    try {
      await other.waitFor((r) => r.type === 'ready');
      other.child.stdin.write('go\n');
      await other.waitFor((r) => r.type === 'started');
      const mine: string[] = [];
      for (let n = 0; n < 300; n++) {
        mine.push(
          await store.addDelivery({
            sessionKey: 'k-parent',
            platform: 'telegram',
            target: { chatId: 'parent' },
            text: `parent:${n}`,
            createdAt: n,
          }),
        );
      }
      other.child.stdin.end('stop\n');
      const done = (await other.waitFor((r) => r.type === 'done')) as Extract<
        Report,
        { type: 'done' }
      >;
      const exit = await other.exited;
      expect(exit, exit.stderr).toMatchObject({ code: 0, signal: null });

      const pending = await store.pendingDeliveries();
      expect(pending).toHaveLength(mine.length + done.ids.length);
      expect(new Set(pending.map((d) => d.id)).size).toBe(pending.length);
      for (const [worker, ids] of [
        ['parent', mine],
        ['child', done.ids],
      ] as const) {
        // Oldest first: each writer's replies in the order it added them.
        const its = pending.filter((d) => d.sessionKey === `k-${worker}`);
        expect(its.map((d) => d.text)).toEqual(ids.map((_, n) => `${worker}:${n}`));
        expect(its.map((d) => d.id)).toEqual(ids);
      }
    } finally {
      other.child.kill('SIGKILL');
      await store.close();
    }
  }, 60_000);
});
