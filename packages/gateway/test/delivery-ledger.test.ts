/**
 * The delivery ledger end to end, on a real SqliteGatewayStore: one-shot deliveries, resending
 * what is left at start-up, and a gateway process SIGKILLed between "the agent answered" and
 * "the message was sent", whose answer a new process sends.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HermesError } from '@hermes/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { deliverText } from '../src/delivery/deliver-text.js';
import {
  MAX_DELIVERY_AGE_MS,
  MAX_DELIVERY_ATTEMPTS,
  resendPending,
} from '../src/delivery/resend-pending.js';
import { SqliteGatewayStore } from '../src/store/sqlite-gateway-store.js';
import { startJsonLinesChild } from './support/json-lines-child.js';
import { LoopbackAdapter } from './support/loopback-adapter.js';

const dbPath = () => join(process.env.HERMES_HOME ?? '', 'state.db');
const stores: SqliteGatewayStore[] = [];

function openStore(): SqliteGatewayStore {
  const store = SqliteGatewayStore.open({ path: dbPath() });
  stores.push(store);
  return store;
}

afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

async function connected(capabilities = {}): Promise<LoopbackAdapter> {
  const adapter = new LoopbackAdapter({ canEdit: false, ...capabilities });
  await adapter.connect(() => {});
  return adapter;
}

const ledger = { sessionKey: 'k1', platform: 'loopback' };
const REPLY = 'first part is here. second part here. third part is here.';

describe('deliverText', () => {
  it('records the text before the first part, splits it, and leaves no entry once sent', async () => {
    const store = openStore();
    const adapter = await connected({ maxMessageLength: 20 });
    const seen: number[] = [];
    adapter.onSend = async () => {
      seen.push((await store.pendingDeliveries()).length);
    };
    await deliverText(adapter, { chatId: 'c1' }, REPLY, { store, ...ledger });
    expect(adapter.sent.map((m) => m.text)).toEqual([
      'first part is here.',
      'second part here.',
      'third part is here.',
    ]);
    expect(seen).toEqual([1, 1, 1]);
    expect(await store.pendingDeliveries()).toEqual([]);
  });

  it('sends nothing for a blank text', async () => {
    const store = openStore();
    const adapter = await connected();
    await deliverText(adapter, { chatId: 'c1' }, ' \n ', { store, ...ledger });
    expect(adapter.sent).toEqual([]);
    expect(await store.pendingDeliveries()).toEqual([]);
  });

  it('rejects, and drops the entry, when the chat is gone', async () => {
    const store = openStore();
    const adapter = await connected();
    adapter.failNextSends(new HermesError('gateway.forbidden', 'bot was kicked'));
    await expect(
      deliverText(adapter, { chatId: 'c1' }, 'hello', { store, ...ledger }),
    ).rejects.toMatchObject({ code: 'gateway.delivery_failed' });
    expect(await store.pendingDeliveries()).toEqual([]);
  });
});

describe('resendPending', () => {
  async function seed(store: SqliteGatewayStore, sentParts: number, createdAt = Date.now()) {
    const id = await store.addDelivery({
      ...ledger,
      target: { chatId: 'c9' },
      text: REPLY,
      createdAt,
    });
    if (sentParts > 0) await store.markDeliveryProgress(id, sentParts);
    return id;
  }

  it('sends what is left of each reply, starting after its sent parts', async () => {
    const store = openStore();
    await seed(store, 1);
    const adapter = await connected({ maxMessageLength: 20 });
    const result = await resendPending(store, new Map([['loopback', adapter]]));
    expect(result).toEqual({ sent: 1, failed: 0 });
    expect(adapter.sent.map((m) => [m.target.chatId, m.text])).toEqual([
      ['c9', 'second part here.'],
      ['c9', 'third part is here.'],
    ]);
    expect(await store.pendingDeliveries()).toEqual([]);
  });

  it('keeps a reply whose platform has no adapter here, and one whose send failed', async () => {
    const store = openStore();
    await seed(store, 0);
    expect(await resendPending(store, new Map())).toEqual({ sent: 0, failed: 0 });
    const adapter = await connected({ maxMessageLength: 20 });
    adapter.failNextSends(new Error('ECONNRESET'));
    expect(await resendPending(store, new Map([['loopback', adapter]]))).toEqual({
      sent: 0,
      failed: 1,
    });
    const [left] = await store.pendingDeliveries();
    expect(left?.attempts).toBe(1);
    expect(await resendPending(store, new Map([['loopback', adapter]]))).toEqual({
      sent: 1,
      failed: 0,
    });
  });

  it('drops a reply whose chat is gone, one retried too often, and one too old', async () => {
    const store = openStore();
    const adapter = await connected({ maxMessageLength: 20 });
    const adapters = new Map([['loopback', adapter]]);
    await seed(store, 0);
    adapter.failNextSends(new HermesError('gateway.chat_not_found', 'deleted'));
    expect(await resendPending(store, adapters)).toEqual({ sent: 0, failed: 1 });
    expect(await store.pendingDeliveries()).toEqual([]);

    const id = await seed(store, 0);
    for (let i = 0; i < MAX_DELIVERY_ATTEMPTS; i++) await store.failDelivery(id, 'x', false);
    await seed(store, 0, Date.now() - MAX_DELIVERY_AGE_MS - 1);
    expect(await resendPending(store, adapters)).toEqual({ sent: 0, failed: 2 });
    expect(adapter.sent).toEqual([]);
    expect(await store.pendingDeliveries()).toEqual([]);
  });
});

type ChildReport = { type: 'sent' | 'hanging'; index: number; text?: string };
const childScript = fileURLToPath(new URL('./support/delivery-child.mjs', import.meta.url));

describe('a gateway killed between "answered" and "sent"', () => {
  const answer = Array.from({ length: 30 }, (_, i) => `word${i}`).join(' ');

  it.each([
    ['before its first part', 0],
    ['after one of its parts', 1],
  ])(
    'is resent by the next process %s, each part exactly once',
    async (_label, hangAtPart) => {
      const child = startJsonLinesChild<ChildReport>(childScript, {
        path: dbPath(),
        text: answer,
        maxMessageLength: 60,
        hangAtPart,
      });
      await child.waitFor((r) => r.type === 'hanging');
      child.child.kill('SIGKILL');
      const exit = await child.exited;
      expect(exit.signal, exit.stderr).toBe('SIGKILL');
      const sentBefore = child.reports.filter((r) => r.type === 'sent').map((r) => r.text);
      expect(sentBefore).toHaveLength(hangAtPart);

      const store = openStore();
      const [pending] = await store.pendingDeliveries();
      expect(pending?.sentParts).toBe(hangAtPart);
      const adapter = await connected({ maxMessageLength: 60 });
      expect(await resendPending(store, new Map([['loopback', adapter]]))).toEqual({
        sent: 1,
        failed: 0,
      });
      const all = [...sentBefore, ...adapter.sent.map((m) => m.text)];
      expect(all.join(' ')).toBe(answer);
      expect(new Set(all).size).toBe(all.length);
      expect(await store.pendingDeliveries()).toEqual([]);
      // The child loads the sources through Vite's module runner: seconds on a loaded machine.
    },
    60_000,
  );
});
