/**
 * HygieneGate with real agents (createAgent against the testkit server, its real compressor) and
 * a real SQLite gateway store, on an injected clock: the thresholds, the persisted cooldown
 * ladder after failures (5 min ×1/×3/×9, capped at 1 h), and a success clearing it.
 */

import { script } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type AgentHandle,
  GATEWAY_DEFAULTS,
  type GatewaySettings,
  HygieneGate,
  SqliteGatewayStore,
} from '../src/index.js';
import { type AgentFixture, startAgentFixture } from './support/testkit-agents.js';

const MINUTE = 60_000;
const home = () => process.env.HERMES_HOME ?? '';
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type Hygiene = GatewaySettings['hygiene'];
const settings = (over: Partial<Hygiene> = {}): Hygiene => ({
  ...GATEWAY_DEFAULTS.hygiene,
  ...over,
});

async function setup() {
  const fixture: AgentFixture = await startAgentFixture(script().text('Sure.').times(50));
  const store = SqliteGatewayStore.open({ hermesHome: home() });
  cleanups.push(
    () => fixture.close(),
    () => store.close(),
  );
  const clock = { now: 10_000_000 };
  return { fixture, store, clock };
}

/**
 * Turns of a long session: each user message is ≈2,100 tokens, so the compressor's protected
 * tail (10K tokens at least) leaves a middle to summarize.
 */
const TURNS = 12;

/** A real agent with `turns` finished turns (two stored messages each). */
async function agentWithTurns(fixture: AgentFixture, key: string, turns: number) {
  const handle = await fixture.factory(fixture.request(key));
  for (let i = 0; i < turns; i++) {
    await handle.agent.runConversation(`message number ${i}: ${'lorem ipsum '.repeat(700)}`);
  }
  return handle;
}

/** Model requests the server has seen (turns and summaries). */
const requests = (fixture: AgentFixture) => fixture.server.requests.length;

describe('HygieneGate', () => {
  it('leaves a session below both thresholds alone', async () => {
    const { fixture, store, clock } = await setup();
    const handle = await agentWithTurns(fixture, 'k', 2);
    const gate = new HygieneGate(store, settings({ maxMessages: 5 }), () => clock.now);
    const seen = requests(fixture);
    expect(await gate.check('k', handle.agent, 128_000)).toEqual({ ran: false, skipped: 'below' });
    expect(requests(fixture)).toBe(seen);
  });

  it('compresses at maxMessages, tells the user, and the stored session shrinks', async () => {
    const { fixture, store, clock } = await setup();
    const handle = await agentWithTurns(fixture, 'k', TURNS);
    const gate = new HygieneGate(store, settings({ maxMessages: 2 * TURNS }), () => clock.now);
    const result = await gate.check('k', handle.agent, 1_000_000);
    expect(result).toMatchObject({ ran: true, ok: true });
    expect(result.notice).toMatch(new RegExp(`${2 * TURNS} → \\d+ messages`));
    // A fresh agent on the stored session sees the compressed conversation.
    const reloaded = await fixture.factory(fixture.request('k', handle.agent.sessionId));
    expect((await reloaded.agent.contextStatus()).messages).toBeLessThan(2 * TURNS);
  });

  it('compresses at the threshold share of the context window (given, or the agent’s own)', async () => {
    const { fixture, store, clock } = await setup();
    const handle = await agentWithTurns(fixture, 'k', TURNS);
    const { estimatedTokens, contextLength } = await handle.agent.contextStatus();
    const gate = new HygieneGate(store, settings({ threshold: 0.85 }), () => clock.now);
    const justUnder = Math.ceil(estimatedTokens / 0.85) + 1;
    expect(await gate.check('k', handle.agent, justUnder)).toMatchObject({ skipped: 'below' });
    const atThreshold = Math.floor(estimatedTokens / 0.85);
    expect(await gate.check('k', handle.agent, atThreshold)).toMatchObject({ ran: true, ok: true });

    // Without a window argument the agent's context engine supplies it.
    expect(contextLength).toBeGreaterThan(estimatedTokens);
    const other = await agentWithTurns(fixture, 'k2', TURNS);
    const own = (await other.agent.contextStatus()).estimatedTokens / (contextLength ?? 1);
    const below = new HygieneGate(store, settings({ threshold: own * 1.1 }), () => clock.now);
    expect(await below.check('k2', other.agent)).toMatchObject({ skipped: 'below' });
    const over = new HygieneGate(store, settings({ threshold: own * 0.9 }), () => clock.now);
    expect(await over.check('k2', other.agent)).toMatchObject({ ran: true, ok: true });
  });

  it('sees a long stored session on an agent that has not run a turn yet', async () => {
    const { fixture, store, clock } = await setup();
    const first = await agentWithTurns(fixture, 'k', TURNS);
    const fresh = await fixture.factory(fixture.request('k', first.agent.sessionId));
    const gate = new HygieneGate(store, settings({ maxMessages: 2 * TURNS }), () => clock.now);
    expect(await gate.check('k', fresh.agent, 1_000_000)).toMatchObject({ ran: true, ok: true });
  });

  it('after failures waits 5, 15, 45, then 60 minutes, persisted across gates; success clears', async () => {
    const { fixture, store, clock } = await setup();
    const first = await agentWithTurns(fixture, 'k', TURNS);
    const sessionId = first.agent.sessionId;
    /**
     * An agent on the session whose session store is then closed under it: its compression
     * fails when committing. A fresh one each time, because the compressor itself stops after
     * three attempts between turns (reporting no change rather than a failure).
     */
    const broken = async (): Promise<AgentHandle> => {
      const handle = await fixture.factory(fixture.request('k', sessionId));
      await handle.agent.contextStatus(); // loads the session while the store is open
      await handle.close();
      return handle;
    };
    // A new gate for every check, as after a restart: only the store remembers.
    const gate = () =>
      new HygieneGate(store, settings({ maxMessages: 2 * TURNS }), () => clock.now);

    const ladder = [5, 15, 45, 60, 60];
    for (const minutes of ladder) {
      const { agent } = await broken();
      const failed = await gate().check('k', agent, 1_000_000);
      expect(failed).toMatchObject({ ran: true, ok: false });
      expect(failed.notice).toContain(minutes === 60 ? '1 hour' : `${minutes} minutes`);
      expect(await store.getHygiene('k')).toMatchObject({
        cooldownUntil: clock.now + minutes * MINUTE,
      });
      clock.now += minutes * MINUTE - 1;
      const seen = requests(fixture);
      expect(await gate().check('k', agent, 1_000_000)).toEqual({
        ran: false,
        skipped: 'cooldown',
      });
      expect(requests(fixture)).toBe(seen);
      clock.now += 1;
    }
    expect((await store.getHygiene('k'))?.failures).toBe(5);

    // One more failure; a restarted gateway (its own connection to the database) sees the cooldown.
    expect(await gate().check('k', (await broken()).agent, 1_000_000)).toMatchObject({ ok: false });
    const reopened = SqliteGatewayStore.open({ hermesHome: home() });
    cleanups.push(() => reopened.close());
    const afterRestart = new HygieneGate(
      reopened,
      settings({ maxMessages: 2 * TURNS }),
      () => clock.now,
    );
    clock.now += 59 * MINUTE;
    expect(await afterRestart.check('k', first.agent, 1_000_000)).toMatchObject({
      skipped: 'cooldown',
    });

    clock.now += MINUTE;
    const healthy = await fixture.factory(fixture.request('k', sessionId));
    expect(await afterRestart.check('k', healthy.agent, 1_000_000)).toMatchObject({
      ran: true,
      ok: true,
    });
    expect(await store.getHygiene('k')).toBeUndefined();
  });

  it('does not touch an agent whose turn is running', async () => {
    const { fixture, store, clock } = await setup();
    const handle = await agentWithTurns(fixture, 'k', TURNS);
    const gate = new HygieneGate(store, settings({ maxMessages: 2 * TURNS }), () => clock.now);
    const turn = handle.agent.runConversation('one more');
    expect(await gate.check('k', handle.agent, 1_000_000)).toEqual({ ran: false, skipped: 'busy' });
    await turn;
    expect(await store.getHygiene('k')).toBeUndefined();
  });
});
