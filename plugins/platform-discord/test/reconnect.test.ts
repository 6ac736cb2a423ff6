/**
 * The fake gateway drops or stalls the connection; the adapter comes back on its own, says so in
 * `connectionState()` (what `/health` shows), and the next message is answered. Every wait is for
 * an event (the fake seeing a RESUME or IDENTIFY, the handler receiving a message, the fake
 * receiving the answer); the timeouts are only backstops. Runs with the adapter's default
 * settings except where a test says otherwise; the fake beats every 100 ms.
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

/**
 * @param beatMs - The fake's heartbeat interval. The drop tests use a long one: with 100 ms, a
 *   loaded machine can read an ACK after the next beat is due and the SDK takes the link for a
 *   zombie, an extra reconnect the exact counts below would trip on.
 */
async function connected(settings: Record<string, unknown> = {}, beatMs = 100) {
  ({ fake, adapter } = await discordFixture(settings));
  fake.heartbeatIntervalMs = beatMs;
  const received: InboundMessage[] = [];
  const waiters: Array<() => void> = [];
  const live = adapter;
  await live.connect(async (message) => {
    received.push(message);
    for (const wake of waiters.splice(0)) wake();
    // Answer like the gateway would, so a test can see the round trip after a reconnect.
    await live.send({ chatId: message.chatId }, { text: `echo: ${message.text}` });
  });
  const arrived = async (text: string): Promise<InboundMessage> => {
    for (;;) {
      const found = received.find((m) => m.text === text);
      if (found) return found;
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  const answered = async (text: string) => {
    const f = fake as FakeDiscord;
    while (!f.messages.some((m) => m.content === `echo: ${text}`)) await f.waitFor('rest');
  };
  return { fake: fake as FakeDiscord, adapter: live, arrived, answered };
}

const dm = (content: string) => ({ channelId: 'dm-1', userId: 'u-1', content });

describe('Discord gateway reconnects', () => {
  it('after a dropped socket it resumes the session, gets the message sent meanwhile, and reports the reconnect', async () => {
    const { fake, adapter, arrived, answered } = await connected({}, 10_000);
    expect(adapter.connectionState()).toEqual({ up: true, reconnects: 0 });
    const resumed = fake.waitFor('resume');
    const started = performance.now();
    fake.drop();
    fake.dispatchMessage(dm('sent while the socket was down'));
    await resumed;
    // The fake has just answered the RESUME; the adapter has not read RESUMED yet.
    expect(adapter.connectionState()).toMatchObject({
      up: false,
      reconnects: 1,
      lastReconnectReason: 'socket closed (code 1006)',
    });
    expect((await arrived('sent while the socket was down')).chatId).toBe('dm-1');
    const reconnectMs = performance.now() - started;
    fake.dispatchMessage(dm('after the resume'));
    await answered('after the resume');
    expect(fake.identifies).toBe(1);
    expect(fake.resumes).toBe(1);
    const state = adapter.connectionState();
    expect(state).toMatchObject({ up: true, reconnects: 1 });
    expect(Date.parse(state.lastReconnectAt ?? '')).toBeGreaterThan(0);
    expect(JSON.stringify(state)).not.toContain(fake.token);
    console.info(`discord reconnect after a drop: ${reconnectMs.toFixed(0)} ms (resume)`);
  }, 20_000);

  it('a second drop counts a second reconnect', async () => {
    const { fake, adapter, answered } = await connected({}, 10_000);
    for (const round of [1, 2]) {
      const resumed = fake.waitFor('resume');
      fake.drop();
      await resumed;
      fake.dispatchMessage(dm(`round ${round}`));
      await answered(`round ${round}`);
      expect(adapter.connectionState()).toMatchObject({ up: true, reconnects: round });
    }
  }, 20_000);

  it('a stalled socket (no heartbeat ACKs) is abandoned and resumed, and the reason says so', async () => {
    const { fake, adapter, answered } = await connected();
    // Counted from here: the stall needs the 100 ms beat, and only the stall's reconnect matters.
    const before = adapter.connectionState().reconnects;
    const resumed = fake.waitFor('resume');
    const started = performance.now();
    fake.stall();
    fake.dispatchMessage(dm('sent into the stall'));
    await resumed;
    expect(adapter.connectionState()).toMatchObject({
      up: false,
      reconnects: before + 1,
      lastReconnectReason: 'no heartbeat ACK in 100 ms',
    });
    await answered('sent into the stall');
    const reconnectMs = performance.now() - started;
    fake.dispatchMessage(dm('after the stall'));
    await answered('after the stall');
    expect(adapter.connectionState()).toMatchObject({ up: true, reconnects: before + 1 });
    console.info(`discord reconnect after a stall: ${reconnectMs.toFixed(0)} ms (resume)`);
  }, 20_000);

  it('the watchdog restarts a connection that stays silent (no HELLO), and messages flow again', async () => {
    const { fake, adapter, answered } = await connected({ watchdog_ms: 600 });
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
    await answered('after the watchdog');
    const state = adapter.connectionState();
    // One for the SDK giving up on the stalled socket, one per watchdog restart at least.
    expect(state.up).toBe(true);
    expect(state.reconnects).toBeGreaterThanOrEqual(1 + adapter.watchdogRestarts);
    expect(state.lastReconnectReason).toMatch(/^watchdog: no heartbeat ACK or event in /);
  }, 20_000);

  it('disconnect marks the link down', async () => {
    const { adapter } = await connected({}, 10_000);
    expect(adapter.connectionState().up).toBe(true);
    await adapter.disconnect();
    expect(adapter.connectionState()).toMatchObject({ up: false, reconnects: 0 });
  });
});
