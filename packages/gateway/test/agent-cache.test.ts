/**
 * AgentCache with real agents (createAgent against the testkit server) on an injected clock and
 * an injected heap gauge: one build per key under concurrent calls, LRU at `max`, idle TTL, heap
 * pressure, never evicting a running turn, and eviction losing nothing of the conversation.
 */
import { waitFor } from '@hermes/protocol/testing';
import { faults, script } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AgentCache,
  type AgentCacheOptions,
  type AgentEvictionReason,
  type HeapUsage,
} from '../src/index.js';
import { type AgentFixture, startAgentFixture } from './support/testkit-agents.js';

const fixtures: AgentFixture[] = [];
afterEach(async () => {
  for (const fixture of fixtures.splice(0)) await fixture.close();
});

async function setup(
  options: Partial<AgentCacheOptions> = {},
  steps = script().text('ok').times(20),
) {
  const fixture = await startAgentFixture(steps);
  fixtures.push(fixture);
  const clock = { now: 1_000_000 };
  const evicted: Array<[string, AgentEvictionReason]> = [];
  const cache = new AgentCache({
    factory: fixture.factory,
    max: 8,
    idleTtlMs: 60_000,
    heapPressureRatio: 0.8,
    clock: () => clock.now,
    heapUsage: () => ({ usedBytes: 0, limitBytes: 100 }),
    onEvict: (key, reason) => evicted.push([key, reason]),
    ...options,
  });
  return { fixture, cache, clock, evicted };
}

type Body = { messages: Array<{ role: string; content: unknown }> };

describe('AgentCache', () => {
  it('builds one agent per key, once, however many ask at the same time', async () => {
    const { fixture, cache } = await setup();
    const gets = Array.from({ length: 5 }, () => cache.get('a', fixture.request('a')));
    const other = cache.get('b', fixture.request('b'));
    const handles = await Promise.all(gets);
    expect(new Set(handles).size).toBe(1);
    expect(await other).not.toBe(handles[0]);
    expect(fixture.built.map((b) => b.request.sessionKey)).toEqual(['a', 'b']);
    expect(cache.size).toBe(2);
    expect(cache.peek('a')).toBe(handles[0]);
    expect(cache.peek('missing')).toBeUndefined();
  });

  it('forgets a failed build, telling every waiter, and tries again next time', async () => {
    const { fixture, cache } = await setup();
    let fail = true;
    const flaky = new AgentCache({
      factory: async (request) => {
        if (fail) throw new Error('config broken');
        return fixture.factory(request);
      },
      max: 2,
      idleTtlMs: 1_000,
      heapPressureRatio: 0.9,
    });
    const both = [flaky.get('a', fixture.request('a')), flaky.get('a', fixture.request('a'))];
    for (const attempt of both) await expect(attempt).rejects.toThrow('config broken');
    expect(flaky.size).toBe(0);
    fail = false;
    expect((await flaky.get('a', fixture.request('a'))).agent).toBeDefined();
    await flaky.closeAll();
    await cache.closeAll();
  });

  it('keeps at most `max`, closing the least recently used', async () => {
    const { fixture, cache, evicted } = await setup({ max: 2 });
    await cache.get('a', fixture.request('a'));
    await cache.get('b', fixture.request('b'));
    await cache.get('a', fixture.request('a')); // a is now the most recent
    await cache.get('c', fixture.request('c'));
    expect(cache.keys()).toEqual(['a', 'c']);
    // The evicted agent closes in the background; the message that made room does not wait.
    await waitFor(() => evicted.length === 1, 10_000);
    expect(evicted).toEqual([['b', 'lru']]);
    expect(fixture.built.map((b) => [b.request.sessionKey, b.closed])).toEqual([
      ['a', 0],
      ['b', 1],
      ['c', 0],
    ]);
  });

  it('closes agents idle for the TTL at a sweep, and only those', async () => {
    const { fixture, cache, clock, evicted } = await setup({ idleTtlMs: 60_000 });
    await cache.get('old', fixture.request('old'));
    clock.now += 30_000;
    await cache.get('recent', fixture.request('recent'));
    clock.now += 29_999;
    expect(await cache.sweep()).toBe(0);
    clock.now += 1;
    expect(await cache.sweep()).toBe(1);
    expect(cache.keys()).toEqual(['recent']);
    expect(evicted).toEqual([['old', 'idle']]);
  });

  it('under heap pressure closes least recently used agents until below the ratio', async () => {
    let gauge = 0;
    const { fixture, cache, evicted } = await setup({
      heapPressureRatio: 0.5,
      // 10 bytes per cached agent on top of 20 of everything else, limit 100.
      heapUsage: (): HeapUsage => {
        gauge += 1;
        return { usedBytes: 20 + 10 * cache.size, limitBytes: 100 };
      },
    });
    for (const key of ['a', 'b', 'c', 'd', 'e']) await cache.get(key, fixture.request(key));
    gauge = 0;
    // 70/100 → evict a (60), b (50: not above 0.5) → stop.
    expect(await cache.sweep()).toBe(2);
    expect(cache.keys()).toEqual(['c', 'd', 'e']);
    expect(evicted).toEqual([
      ['a', 'pressure'],
      ['b', 'pressure'],
    ]);
    gauge = 0;
    expect(await cache.sweep()).toBe(0);
    expect(gauge).toBe(1); // one look at the heap when nothing needs doing
  });

  it('never evicts an agent whose turn is running, by TTL, pressure, LRU or evict()', async () => {
    const { fixture, cache, clock } = await setup(
      { max: 1, heapUsage: () => ({ usedBytes: 99, limitBytes: 100 }) },
      script().fault(faults.stall()).next().text('after'),
    );
    const handle = await cache.get('busy', fixture.request('busy'));
    const turn = handle.agent.runConversation('take your time');
    await waitFor(() => fixture.server.requests.length === 1, 10_000);
    clock.now += 10 * 3_600_000;
    expect(await cache.sweep()).toBe(0);
    expect(await cache.evict('busy')).toBe(false);
    // Over max, but the busy agent stays, and so does the one just handed out.
    const other = await cache.get('other', fixture.request('other'));
    expect(cache.keys()).toEqual(['busy', 'other']);
    expect(cache.peek('other')).toBe(other);
    expect(fixture.built[0]?.closed).toBe(0);

    handle.agent.interrupt();
    expect((await turn).interrupted).toBe(true);
    expect(await cache.sweep()).toBe(2);
    expect(fixture.built.map((b) => b.closed)).toEqual([1, 1]);
  });

  it('respects isBusy (the lane holding the key) like a running turn', async () => {
    const held = new Set(['a']);
    const { fixture, cache, clock } = await setup({ isBusy: (key) => held.has(key) });
    await cache.get('a', fixture.request('a'));
    clock.now += 3_600_000;
    expect(await cache.sweep()).toBe(0);
    held.clear();
    expect(await cache.sweep()).toBe(1);
  });

  it('rebuilds an evicted agent on the same stored session with nothing lost', async () => {
    const { fixture, cache } = await setup(
      {},
      script().text('The capital is Paris.').next().text('It has about two million people.'),
    );
    const first = await cache.get('chat', fixture.request('chat'));
    await first.agent.runConversation('What is the capital of France?');
    const sessionId = first.agent.sessionId as string;
    expect(sessionId).toBeDefined();

    expect(await cache.evict('chat')).toBe(true);
    expect(fixture.built[0]?.closed).toBe(1);
    expect(cache.peek('chat')).toBeUndefined();

    const second = await cache.get('chat', fixture.request('chat', sessionId));
    expect(second).not.toBe(first);
    const answer = await second.agent.runConversation('And how many people live there?');
    expect(answer.finalResponse).toBe('It has about two million people.');
    expect(second.agent.sessionId).toBe(sessionId);
    const body = fixture.server.requests[1]?.body as Body | undefined;
    const sent = (body?.messages ?? []).map((m) => m.content);
    expect(sent).toContain('What is the capital of France?');
    expect(sent).toContain('The capital is Paris.');
    expect(sent).toContain('And how many people live there?');
  });

  it('replaces a cached agent that is on another session than the one asked for', async () => {
    const { fixture, cache, evicted } = await setup();
    const first = await cache.get('k', fixture.request('k'));
    await first.agent.runConversation('hello');
    const again = await cache.get('k', fixture.request('k', first.agent.sessionId));
    expect(again).toBe(first);
    const other = await cache.get('k', fixture.request('k', 'some-other-session'));
    expect(other).not.toBe(first);
    await waitFor(() => evicted.length === 1, 10_000);
    expect(evicted).toEqual([['k', 'replaced']]);
  });

  it('reports a failing close and carries on', async () => {
    const { fixture } = await setup();
    const reports: unknown[] = [];
    const cache = new AgentCache({
      factory: async (request) => {
        const handle = await fixture.factory(request);
        return {
          agent: handle.agent,
          close: async () => {
            await handle.close();
            throw new Error('environment cleanup failed');
          },
        };
      },
      max: 1,
      idleTtlMs: 1_000,
      heapPressureRatio: 0.9,
      onEvict: (_key, _reason, error) => reports.push(error),
    });
    await cache.get('a', fixture.request('a'));
    await cache.get('b', fixture.request('b'));
    expect(cache.keys()).toEqual(['b']);
    await waitFor(() => reports.length === 1, 10_000);
    expect(String(reports[0])).toContain('environment cleanup failed');
    await cache.closeAll();
    expect(cache.size).toBe(0);
  });

  it('closeAll closes every agent, and the cache can be used again', async () => {
    const { fixture, cache } = await setup();
    await cache.get('a', fixture.request('a'));
    await cache.get('b', fixture.request('b'));
    await cache.closeAll();
    expect(cache.size).toBe(0);
    expect(fixture.built.map((b) => b.closed)).toEqual([1, 1]);
    await cache.get('a', fixture.request('a'));
    expect(cache.size).toBe(1);
  });
});
