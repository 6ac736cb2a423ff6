import { LocalEnvironment } from '@hermes/environments';
import type { AgentEvent } from '@hermes/protocol';
import { waitFor } from '@hermes/protocol/testing';
import { OpenAIChatProvider } from '@hermes/providers';
import { faults, script, startScriptedServer } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './support/harness.js';
import { TestToolbox } from './support/test-toolbox.js';

let harness: Harness | undefined;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const environment = () => new LocalEnvironment({ loginShellEnv: false });
type Body = { messages: { role: string; content: string }[] };
const messagesOf = (h: Harness, i: number) =>
  (h.server.requests[i]?.body as Body | undefined)?.messages ?? [];

describe('steer', () => {
  it('a steer sent while tools run lands on the tool message, in the request and the store', async () => {
    const toolbox = new TestToolbox({
      work: {
        run: () => {
          harness?.agent.steer('prefer the quick fix');
          return 'worked';
        },
      },
    });
    harness = await startHarness(script().toolCall('work', {}).next().text('done'), {
      toolbox,
      environment: environment(),
    });
    const result = await harness.agent.runConversation('fix it');
    const tool = messagesOf(harness, 1).find((m) => m.role === 'tool');
    expect(tool?.content).toContain('worked');
    expect(tool?.content).toContain('prefer the quick fix');
    expect(messagesOf(harness, 1).filter((m) => m.role === 'user')).toHaveLength(1);
    const rows = await harness.store.getMessages(result.sessionId);
    expect(String(rows.find((r) => r.message.role === 'tool')?.message.content)).toContain(
      'prefer the quick fix',
    );
    expect(result.pendingSteer).toBeUndefined();
  });

  it('a steer with no tool message to carry it waits, and is returned if it never lands', async () => {
    harness = await startHarness(script().text('plain answer'), {
      toolbox: new TestToolbox({}),
      environment: environment(),
    });
    harness.agent.steer('be brief');
    const result = await harness.agent.runConversation('hello');
    expect(result.pendingSteer).toBe('be brief');
    expect(JSON.stringify(messagesOf(harness, 0))).not.toContain('be brief');
  });
});

describe('redirect', () => {
  it('abandons the streaming answer and continues with the correction in the same turn', async () => {
    harness = await startHarness(
      script()
        .text('I will write this script in Node.js with a lot of detail and care')
        .chunking({ textChunkSize: 4 })
        .delay(40)
        .next()
        .text('Understood: Python it is.'),
      { toolbox: new TestToolbox({}), environment: environment() },
    );
    const h = harness;
    let redirected = false;
    h.agent.on('text_delta', () => {
      if (!redirected) redirected = h.agent.redirect('No, use Python');
    });
    const result = await h.agent.runConversation('write a script');
    expect(redirected).toBe(true);
    expect(result.exitReason).toBe('completed');
    expect(result.finalResponse).toBe('Understood: Python it is.');
    const second = messagesOf(h, 1);
    expect(second.at(-1)).toEqual({ role: 'user', content: 'No, use Python' });
    expect(second.at(-2)?.role).toBe('assistant');
    expect(second.at(-2)?.content.startsWith('I wi')).toBe(true);
    const rows = await h.store.getMessages(result.sessionId);
    expect(rows.map((r) => r.message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  });

  it('returns false when no model call is in flight', async () => {
    harness = await startHarness(script().text('x'), {
      toolbox: new TestToolbox({}),
      environment: environment(),
    });
    expect(harness.agent.redirect('anything')).toBe(false);
  });
});

describe('undo', () => {
  it('removes the last exchange in memory and in the store, archiving its rows', async () => {
    harness = await startHarness(script().text('one').next().text('two'), {
      toolbox: new TestToolbox({}),
      environment: environment(),
    });
    const { agent, store } = harness;
    expect(await agent.undo()).toBeUndefined();
    await agent.runConversation('first');
    await agent.runConversation('second');
    const removed = await agent.undo();
    expect(removed?.content).toBe('second');
    expect(agent.messages.map((m) => m.content)).toEqual(['first', 'one']);
    const sessionId = agent.sessionId as string;
    const active = await store.getMessages(sessionId);
    expect(active.map((row) => row.message.content)).toEqual(['first', 'one']);
    const all = await store.getMessages(sessionId, { includeInactive: true });
    expect(all.map((row) => row.message.content)).toContain('two');
  });
});

describe('model retries', () => {
  it('emits model_retry for each transient failure before the answer, and nothing between turns', async () => {
    harness = await startHarness(
      script().fault(faults.serverError()).next().fault(faults.unavailable()).next().text('ok'),
      { toolbox: new TestToolbox({}), environment: environment() },
    );
    const events: AgentEvent[] = [];
    harness.agent.on('event', (e) => events.push(e));
    harness.agent.reportModelRetry({ attempt: 1, delayMs: 5, code: 'x', message: 'idle' });
    const result = await harness.agent.runConversation('hi');
    expect(result.finalResponse).toBe('ok');
    const retries = events.filter((e) => e.type === 'model_retry');
    expect(retries.map((e) => [e.attempt, e.code])).toEqual([
      [1, 'provider.server_error'],
      [2, 'provider.overloaded'],
    ]);
    const start = events.find((e) => e.type === 'turn_start');
    expect(retries.every((e) => e.turnId === start?.turnId && e.delayMs >= 0)).toBe(true);
    expect(events.findIndex((e) => e.type === 'model_retry')).toBeGreaterThan(
      events.findIndex((e) => e.type === 'turn_start'),
    );
  });
});

describe('fallback and compression mid-turn', () => {
  it('falls back to the next provider when the primary fails mid-turn, then returns to it', async () => {
    const backup = await startScriptedServer(script().text('from the fallback'));
    cleanups.push(() => backup.close());
    harness = await startHarness(
      script()
        .toolCall('echo', { a: 1 })
        .next()
        .fault(faults.unauthorized())
        .next()
        .text('primary again'),
      {
        toolbox: new TestToolbox({ echo: { run: () => 'echoed' } }),
        environment: environment(),
        fallback: [
          {
            provider: new OpenAIChatProvider({
              apiKey: 'k2',
              baseUrl: backup.baseUrl('openai-chat'),
            }),
            model: 'backup-model',
            label: 'backup',
          },
        ],
      },
    );
    const events: AgentEvent[] = [];
    harness.agent.on('fallback_activated', (e) => events.push(e));
    const first = await harness.agent.runConversation('go');
    expect(first.finalResponse).toBe('from the fallback');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      reason: 'auth',
      to: { provider: 'backup', model: 'backup-model' },
    });
    const second = await harness.agent.runConversation('again');
    expect(second.finalResponse).toBe('primary again');
  });

  it('compresses mid-turn after a large reported prompt and archives the old rows', async () => {
    harness = await startHarness(
      script()
        .toolCall('echo', { a: 1 })
        .usage({ inputTokens: 5_000 })
        .next()
        .text('finished')
        .usage({ inputTokens: 100 }),
      { toolbox: new TestToolbox({ echo: { run: () => 'echoed' } }), environment: environment() },
    );
    harness.engine.threshold = 1_000;
    const result = await harness.agent.runConversation('compress me');
    expect(result.exitReason).toBe('completed');
    expect(harness.engine.compressions).toBe(1);
    const all = await harness.store.getMessages(result.sessionId, { includeInactive: true });
    expect(all.filter((r) => r.compacted).length).toBeGreaterThanOrEqual(3);
    const active = await harness.store.getMessages(result.sessionId);
    expect(active[0]?.message.content).toMatch(/^\[summary of/);
    expect(active.at(-1)?.message.content).toBe('finished');
    const session = await harness.store.getSession(result.sessionId);
    expect(session?.counters.compressions).toBe(1);
  });

  it("passes the engine's warnings on in compression_end; pruning without a summary is not counted", async () => {
    harness = await startHarness(
      script()
        .toolCall('echo', { a: 1 })
        .usage({ inputTokens: 5_000 })
        .next()
        .text('finished')
        .usage({ inputTokens: 100 }),
      { toolbox: new TestToolbox({ echo: { run: () => 'echoed' } }), environment: environment() },
    );
    harness.engine.threshold = 1_000;
    harness.engine.writesSummary = false;
    harness.engine.warnings = ['summary rejected: longer than the span it replaces'];
    const ends: AgentEvent[] = [];
    harness.agent.on('event', (event) => {
      if (event.type === 'compression_end') ends.push(event);
    });
    const result = await harness.agent.runConversation('compress me');
    expect(result.exitReason).toBe('completed');
    expect(ends).toHaveLength(1);
    expect(ends[0]).toMatchObject({
      ok: true,
      warnings: ['summary rejected: longer than the span it replaces'],
    });
    const session = await harness.store.getSession(result.sessionId);
    expect(session?.counters.compressions).toBe(0);
  });
});

describe('interrupt reaches a model call stalled mid-stream', () => {
  it('ends the turn as interrupted_during_api_call', async () => {
    harness = await startHarness(script().fault(faults.stall(1)), {
      toolbox: new TestToolbox({}),
      environment: environment(),
    });
    const h = harness;
    const turn = h.agent.runConversation('hang');
    expect(await waitFor(() => h.server.requests.length === 1, 15_000)).toBe(true);
    // The stream never ends, so only the interrupt can end the turn. How soon it does (the
    // "within a second" target) is measured by bench/interrupt.mjs, not raced here.
    h.agent.interrupt();
    const result = await turn;
    expect(result.exitReason).toBe('interrupted_during_api_call');
  });
});

describe('manual compression', () => {
  it('agent.compress(topic) archives rows between turns and passes the focus topic', async () => {
    harness = await startHarness(script().text('one').next().text('two').next().text('three'), {
      toolbox: new TestToolbox({}),
      environment: environment(),
    });
    for (const text of ['a', 'b', 'c']) await harness.agent.runConversation(text);
    const report = await harness.agent.compress('the deployment plan');
    expect(report).toMatchObject({ ok: true, changed: true, trigger: 'manual' });
    expect(harness.engine.focusTopics).toEqual(['the deployment plan']);
    const sessionId = harness.agent.sessionId ?? '';
    const archived = (await harness.store.getMessages(sessionId, { includeInactive: true })).filter(
      (r) => r.compacted,
    );
    expect(archived).toHaveLength(6);
    expect(harness.agent.messages).toHaveLength(3);
  });
});
