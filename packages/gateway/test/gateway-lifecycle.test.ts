import { HermesError } from '@hermes/protocol';
import { script } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import type { PlatformCapabilities } from '../src/capabilities.js';
import { type ConnectionState, ConnectionTracker } from '../src/connection-state.js';
import type { InboundHandler, OutboundMessage, SendTarget, SentMessage } from '../src/messages.js';
import { RECOVERY_NOTE, RESTARTING } from '../src/pipeline/notices.js';
import { PlatformAdapter } from '../src/platform-adapter.js';
import { RestartGuard } from '../src/restart/restart-guard.js';
import { SqliteGatewayStore } from '../src/store/sqlite-gateway-store.js';
import { type Harness, RecordingSink, startHarness, ToolGate } from './support/gateway-harness.js';

const home = () => process.env.HERMES_HOME ?? '';

/** A platform whose login always fails. */
class BrokenAdapter extends PlatformAdapter {
  readonly platform: string = 'broken';
  capabilities(): PlatformCapabilities {
    return {
      maxMessageLength: 100,
      canEdit: false,
      supportsDrafts: false,
      hasOwnAccessPolicy: false,
      supportsThreads: false,
      supportsMarkdown: false,
    };
  }
  async connect(_onMessage: InboundHandler): Promise<void> {
    throw new HermesError('gateway.login_failed', 'the bot token was rejected');
  }
  async disconnect(): Promise<void> {}
  async send(_target: SendTarget, _message: OutboundMessage): Promise<SentMessage> {
    throw new HermesError('gateway.not_connected', 'not connected');
  }
}

/** A platform whose link drops and comes back, reported through a ConnectionTracker. */
class FlakyAdapter extends BrokenAdapter {
  override readonly platform = 'flaky';
  readonly tracker = new ConnectionTracker(() => Date.parse('2026-12-02T10:00:00Z'));
  garbage = false;
  override async connect(_onMessage: InboundHandler): Promise<void> {
    this.tracker.markUp();
  }
  override connectionState(): ConnectionState | undefined {
    if (this.garbage) return { up: 'yes' } as unknown as ConnectionState;
    return this.tracker.state();
  }
}

async function withStore<T>(work: (store: SqliteGatewayStore) => Promise<T>): Promise<T> {
  const store = SqliteGatewayStore.open({ hermesHome: home() });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

function cutOffTurn(chatId: string) {
  return {
    sessionKey: `agent:default:loopback:dm:${chatId}`,
    sessionId: `s-${chatId}`,
    platform: 'loopback',
    target: { chatId },
    startedAt: Date.now(),
  };
}

describe('Gateway start', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('resends what the delivery ledger holds from the previous process', async () => {
    await withStore(async (store) => {
      const id = await store.addDelivery({
        sessionKey: 'agent:default:loopback:dm:dm-1',
        platform: 'loopback',
        target: { chatId: 'dm-1' },
        text: 'The answer the last process never sent.',
        createdAt: Date.now(),
      });
      expect(id).toBeTruthy();
    });
    h = await startHarness(script());
    expect(h.texts('dm-1')).toEqual(['The answer the last process never sent.']);
    expect(await h.store.pendingDeliveries()).toEqual([]);
  });

  it('tells each chat whose turn was cut off, once', async () => {
    await withStore((store) => store.beginTurn(cutOffTurn('dm-7')));
    h = await startHarness(script());
    expect(h.texts('dm-7')).toEqual([RECOVERY_NOTE]);
    await h.close();
    h = await startHarness(script());
    expect(h.texts('dm-7')).toEqual([]);
  });

  it('skips the recovery notes once when restarts storm (three starts with cut-off turns in 300 s)', async () => {
    const guard = new RestartGuard(home());
    expect(guard.shouldResume()).toBe(true);
    expect(guard.shouldResume()).toBe(true);
    await withStore((store) => store.beginTurn(cutOffTurn('dm-8')));
    h = await startHarness(script());
    expect(h.texts('dm-8')).toEqual([]);
    expect(h.log.lines.some((line) => line.message.includes('restart loop'))).toBe(true);
  });

  it('a failing adapter is reported in health; the others run', async () => {
    h = await startHarness(script().text('Still working.'), {
      extraAdapters: [new BrokenAdapter()],
    });
    const health = h.gateway.health();
    expect(health.status).toBe('degraded');
    expect(health.adapters).toContainEqual({
      platform: 'broken',
      connected: false,
      error: 'the bot token was rejected',
    });
    expect(health.adapters).toContainEqual({ platform: 'loopback', connected: true });
    await h.say('are you there?');
    await h.gateway.settled();
    expect(h.texts()).toContain('Still working.');
  });

  it('health follows an adapter that reconnects, and ignores a garbled report', async () => {
    const flaky = new FlakyAdapter();
    h = await startHarness(script(), { extraAdapters: [flaky] });
    const entry = () => h?.gateway.health().adapters.find((a) => a.platform === 'flaky');
    expect(entry()).toEqual({ platform: 'flaky', connected: true, reconnects: 0 });
    flaky.tracker.markReconnecting('no heartbeat ACK in 62 s');
    expect(h.gateway.health().status).toBe('degraded');
    expect(entry()).toEqual({
      platform: 'flaky',
      connected: false,
      reconnects: 1,
      lastReconnectAt: '2026-12-02T10:00:00.000Z',
      lastReconnectReason: 'no heartbeat ACK in 62 s',
    });
    flaky.tracker.markUp();
    expect(h.gateway.health().status).toBe('ok');
    expect(entry()).toMatchObject({ connected: true, reconnects: 1 });
    flaky.garbage = true;
    expect(entry()).toEqual({ platform: 'flaky', connected: true });
  });

  it('health reports turns, queue, cached agents, heap and uptime', async () => {
    h = await startHarness(script().text('Hi.'));
    const before = h.gateway.health();
    expect(before.status).toBe('ok');
    expect(before.runningTurns).toBe(0);
    expect(before.cachedAgents).toBe(0);
    expect(before.heap.usedBytes).toBeGreaterThan(0);
    expect(before.heap.limitBytes).toBeGreaterThan(before.heap.usedBytes);
    expect(before.uptimeSeconds).toBeGreaterThanOrEqual(0);
    await h.say('hi');
    await h.gateway.settled();
    expect(h.gateway.health().cachedAgents).toBe(1);
  });

  it('deliver() sends to a chat through the ledger; an unknown platform is refused', async () => {
    h = await startHarness(script());
    await h.gateway.deliver('loopback', { chatId: 'ops' }, 'Webhook result: build passed.');
    expect(h.texts('ops')).toEqual(['Webhook result: build passed.']);
    await expect(h.gateway.deliver('nowhere', { chatId: 'x' }, 'hi')).rejects.toMatchObject({
      code: 'gateway.no_adapter',
    });
  });
});

describe('Gateway stop', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('drains: new messages are turned away, the running turn finishes and is delivered', async () => {
    const gate = new ToolGate();
    h = await startHarness(script().toolCall('hold').next().text('Finished before shutdown.'), {
      tools: [gate.tool],
    });
    await h.say('long job');
    await gate.waitEntered();
    const stopping = h.gateway.stop({ drainTimeoutMs: 60_000 });
    expect(h.gateway.health().status).toBe('draining');
    await h.say('are you there?', { chatId: 'dm-1' });
    expect(h.texts()).toContain(RESTARTING);
    const sink = new RecordingSink();
    await h.ask('api request', { sink }, { chatId: 'api-9' });
    expect(sink.failure?.code).toBe('gateway.restarting');
    gate.release();
    await stopping;
    expect(h.texts()).toContain('Finished before shutdown.');
    expect(h.closed.count).toBe(1);
    // The turn ended normally: nothing is left to recover.
    expect(await withStore((store) => store.takeCutOffTurns())).toEqual([]);
    // stop() is idempotent, and a stopped gateway does not start again.
    await h.gateway.stop();
    await expect(h.gateway.start()).resolves.toBeUndefined();
  });

  it('a gateway stopped before it started refuses to start', async () => {
    h = await startHarness(script(), { start: false });
    await h.gateway.stop();
    await expect(h.gateway.start()).rejects.toMatchObject({ code: 'gateway.stopped' });
  });

  it('interrupts turns still running at the drain deadline; they persist and are recovered on the next start', async () => {
    const gate = new ToolGate();
    h = await startHarness(script().toolCall('hold').next().text('unused'), { tools: [gate.tool] });
    await h.say('very long job');
    await gate.waitEntered();
    await h.gateway.stop({ drainTimeoutMs: 20 });
    // The held tool saw the interrupt; no further model call was made.
    expect(h.server.requests).toHaveLength(1);
    const server = h.server;
    h = await startHarness(script(), { server });
    expect(h.texts('dm-1')).toEqual([RECOVERY_NOTE]);
    await server.close();
  });
});
