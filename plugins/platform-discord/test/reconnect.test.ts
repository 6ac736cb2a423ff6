/**
 * The fake gateway drops or stalls the connection; the adapter comes back on its own and the
 * next message gets through. Every wait is for an event (the fake seeing a RESUME or IDENTIFY,
 * the handler receiving a message); the timeouts are only backstops.
 */
import type { InboundMessage } from '@hermes/plugin-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import type { DiscordAdapter } from '../src/discord-adapter.js';
import type { FakeDiscord } from './fake-discord.js';
import { discordFixture } from './fixture.js';

let fake: FakeDiscord | undefined;
let adapter: DiscordAdapter | undefined;
afterEach(async () => {
  await adapter?.disconnect();
  await fake?.close();
});

async function connected(settings: Record<string, unknown> = {}) {
  ({ fake, adapter } = await discordFixture(settings));
  const received: InboundMessage[] = [];
  const waiters: Array<() => void> = [];
  await adapter.connect((message) => {
    received.push(message);
    for (const wake of waiters.splice(0)) wake();
  });
  const arrived = async (text: string): Promise<InboundMessage> => {
    for (;;) {
      const found = received.find((m) => m.text === text);
      if (found) return found;
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  return { fake: fake as FakeDiscord, adapter: adapter as DiscordAdapter, arrived };
}

const dm = (content: string) => ({ channelId: 'dm-1', userId: 'u-1', content });

describe('Discord gateway reconnects', () => {
  it('after a dropped socket it resumes the session and gets the message sent meanwhile', async () => {
    const { fake, arrived } = await connected();
    const resumed = fake.waitFor('resume');
    const started = performance.now();
    fake.drop();
    fake.dispatchMessage(dm('sent while the socket was down'));
    await resumed;
    const reconnectMs = performance.now() - started;
    expect((await arrived('sent while the socket was down')).chatId).toBe('dm-1');
    fake.dispatchMessage(dm('after the resume'));
    await arrived('after the resume');
    expect(fake.identifies).toBe(1);
    expect(fake.resumes).toBe(1);
    console.info(`discord reconnect after a drop: ${reconnectMs.toFixed(0)} ms (resume)`);
  }, 20_000);

  it('a stalled socket (no heartbeat ACKs) is abandoned and resumed', async () => {
    const { fake, arrived } = await connected();
    const resumed = fake.waitFor('resume');
    fake.stall();
    fake.dispatchMessage(dm('sent into the stall'));
    await resumed;
    await arrived('sent into the stall');
  }, 20_000);

  it('the watchdog restarts a connection that stays silent (no HELLO), and messages flow again', async () => {
    const { fake, adapter, arrived } = await connected({ watchdog_ms: 600 });
    // The SDK's own recovery meets sockets that never say HELLO; it would wait a minute each.
    fake.silent = true;
    const first = fake.connections;
    const twoSilent = fake.waitFor('connection', (n: number) => n >= first + 2);
    fake.stall();
    await twoSilent;
    const identified = fake.waitFor('identify');
    fake.silent = false;
    await identified;
    expect(adapter.watchdogRestarts).toBeGreaterThanOrEqual(1);
    fake.dispatchMessage(dm('after the watchdog'));
    await arrived('after the watchdog');
  }, 20_000);
});
