/** The fake Bot API stalls or drops a poll: the adapter polls again and the next message arrives. */
import { afterEach, describe, expect, it } from 'vitest';
import { connectedAdapter } from './support.ts';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

const polls = (calls: readonly { method: string }[]) =>
  calls.filter((c) => c.method === 'getUpdates').length;

describe('telegram poller watchdog', () => {
  it('restarts a poll that never answers, logs and counts it, and receives the next message', async () => {
    // 1 s long poll + 0.2 s margin: a stalled call is given up after 1.2 s.
    const t = await connectedAdapter({ poll_timeout_seconds: 1, watchdog_margin_seconds: 0.2 });
    close = t.close;
    await t.api.waitForCall((c) => c.method === 'getUpdates');
    // The poll in flight answers normally; the one after it stalls.
    t.api.stallPolls(1);
    const before = polls(t.api.calls);
    const started = Date.now();
    await t.api.waitForCall((c) => c.method === 'getUpdates' && polls(t.api.calls) >= before + 2);
    const reconnectMs = Date.now() - started;
    expect(t.adapter.pollerRestarts).toBe(1);
    expect(t.log.lines.some((l) => l.startsWith('warn telegram poller stalled'))).toBe(true);
    expect(reconnectMs).toBeGreaterThanOrEqual(1000);

    t.api.push({ chatId: 42, userId: 7, text: 'still there?' });
    const [message] = await t.waitForReceived(1);
    expect(message).toMatchObject({
      chatId: '42',
      userId: '7',
      text: 'still there?',
      isDirect: true,
    });
  });

  it('retries after the connection is dropped and receives the next message; the token stays out of the log', async () => {
    const t = await connectedAdapter({ retry_base_ms: 20 });
    close = t.close;
    await t.api.waitForCall((c) => c.method === 'getUpdates');
    t.api.dropPolls(1);
    t.api.push({ chatId: 42, userId: 7, text: 'first' }); // answers the poll in flight
    await t.waitForReceived(1);
    const before = polls(t.api.calls);
    // The next poll is dropped; the one after it must come.
    await t.api.waitForCall(() => polls(t.api.calls) >= before + 2);
    // The poll after the drop is a probe (timeout 0): it answers at once and the link is up.
    await t.api.waitForCall(() => polls(t.api.calls) >= before + 3);
    expect(t.adapter.connectionState()).toMatchObject({
      up: true,
      reconnects: 1,
      lastReconnectReason: 'getUpdates failed (telegram.unreachable)',
    });
    t.api.push({ chatId: 42, userId: 7, text: 'after the drop' });
    const received = await t.waitForReceived(2);
    expect(received[1]?.text).toBe('after the drop');
    expect(t.log.lines.some((l) => l.startsWith('warn telegram getUpdates failed'))).toBe(true);
    expect(t.log.lines.join('\n')).not.toContain('SECRET-test-token');
    expect(t.adapter.pollerRestarts).toBe(0);
  });

  it('reports the link down while the poller restarts, up after the next answered poll, and answers the next DM', async () => {
    const t = await connectedAdapter({ poll_timeout_seconds: 1, watchdog_margin_seconds: 0.2 });
    close = t.close;
    expect(t.adapter.connectionState()).toEqual({ up: true, reconnects: 0 });
    await t.api.waitForCall((c) => c.method === 'getUpdates');
    // The poll after the one in flight stalls; the probe the watchdog sends next is held.
    t.api.stallPolls(1);
    t.api.holdPolls(1);
    const probe = await t.api.waitForCall(
      (c) => c.method === 'getUpdates' && c.params.timeout === 0,
    );
    const probeIndex = t.api.calls.indexOf(probe);
    const state = t.adapter.connectionState();
    expect(state).toMatchObject({
      up: false,
      reconnects: 1,
      lastReconnectReason: 'no getUpdates answer in 1.2 s',
    });
    expect(Date.parse(state.lastReconnectAt ?? '')).not.toBeNaN();

    t.api.releasePolls();
    // The adapter marks the link up before it polls again.
    await t.api.waitForCall(
      (c) => c.method === 'getUpdates' && t.api.calls.indexOf(c) > probeIndex,
    );
    expect(t.adapter.connectionState()).toMatchObject({ up: true, reconnects: 1 });
    expect(t.log.lines.some((l) => l.startsWith('info telegram poller reconnected'))).toBe(true);

    t.api.push({ chatId: 42, userId: 7, text: 'back?' });
    const [message] = await t.waitForReceived(1);
    expect(message?.text).toBe('back?');
    await t.adapter.disconnect();
    expect(t.adapter.connectionState()).toMatchObject({ up: false, reconnects: 1 });
  });

  it('deletes a leftover webhook before its first getUpdates (Telegram refuses polls while one is set)', async () => {
    const t = await connectedAdapter({}, (api) => {
      api.webhook.answer('setWebhook', { url: 'https://old.example.test/hook' });
    });
    close = t.close;
    const first = await t.api.waitForCall((c) => c.method === 'getUpdates');
    const deleted = t.api.calls.findIndex((c) => c.method === 'deleteWebhook');
    expect(deleted).toBeGreaterThanOrEqual(0);
    expect(deleted).toBeLessThan(t.api.calls.indexOf(first));
    t.api.push({ chatId: 42, userId: 7, text: 'polling again' });
    const [message] = await t.waitForReceived(1);
    expect(message?.text).toBe('polling again');
  });
});
