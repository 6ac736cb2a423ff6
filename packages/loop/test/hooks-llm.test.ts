/** preLlmCall (context for this turn's request only) and postLlmCall (every answered call). */
import { LocalEnvironment } from '@hermes/environments';
import { script } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import type { TurnMemory } from '../src/index.js';
import { type Harness, startHarness } from './support/harness.js';
import { garbageHooks, RecordingHooks, throwingHooks } from './support/recording-hooks.js';
import { TestToolbox } from './support/test-toolbox.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

type Body = { messages: { role: string; content: string }[] };
const environment = () => new LocalEnvironment({ loginShellEnv: false });
const echoBox = () => new TestToolbox({ echo: { run: (args) => `echo:${String(args.text)}` } });
const userMessages = (h: Harness, request: number) =>
  ((h.server.requests[request]?.body as Body | undefined)?.messages ?? [])
    .filter((m) => m.role === 'user')
    .map((m) => m.content);
const memory: TurnMemory = {
  prefetch: async () => ({
    fenced: '<memory-context>tea</memory-context>',
    provider: 't',
    count: 1,
  }),
};

describe('preLlmCall', () => {
  it("adds context to this turn's requests only, after recalled memory, never stored", async () => {
    let turns = 0;
    const hooks = new RecordingHooks({
      preLlmCall: () => (++turns === 1 ? 'PLUGIN-CONTEXT: the repo uses pnpm' : undefined),
    });
    harness = await startHarness(
      script().toolCall('echo', { text: 'a' }).next().text('first').next().text('second'),
      { toolbox: echoBox(), environment: environment(), hooks, memory },
    );
    const first = await harness.agent.runConversation('build it');
    expect(hooks.payloads('preLlmCall')).toEqual([
      { sessionId: first.sessionId, userMessage: 'build it' },
    ]);
    // Both requests of the turn carry it, right after the recalled memory.
    for (const request of [0, 1]) {
      expect(userMessages(harness, request)).toEqual([
        'build it\n\n<memory-context>tea</memory-context>\n\nPLUGIN-CONTEXT: the repo uses pnpm',
      ]);
    }
    const rows = await harness.store.getMessages(first.sessionId);
    expect(JSON.stringify(rows)).not.toContain('PLUGIN-CONTEXT');
    expect(rows[0]?.message.content).toBe('build it');
    await harness.agent.runConversation('and now?');
    expect(hooks.payloads('preLlmCall')).toHaveLength(2); // once per turn
    const next = userMessages(harness, 2);
    expect(JSON.stringify(next)).not.toContain('PLUGIN-CONTEXT');
    expect(next.at(-1)).toBe('and now?\n\n<memory-context>tea</memory-context>');
  });

  it('without memory the context follows the user text', async () => {
    const hooks = new RecordingHooks({ preLlmCall: 'CTX' });
    harness = await startHarness(script().text('ok'), {
      toolbox: echoBox(),
      environment: environment(),
      hooks,
    });
    await harness.agent.runConversation('hello');
    expect(userMessages(harness, 0)).toEqual(['hello\n\nCTX']);
  });
});

describe('postLlmCall', () => {
  it('reports every answered model call with its summary', async () => {
    const hooks = new RecordingHooks();
    harness = await startHarness(
      script()
        .toolCall('echo', { text: 'a' })
        .usage({ inputTokens: 120, outputTokens: 7 })
        .next()
        .text('all done')
        .usage({ inputTokens: 150, outputTokens: 3 }),
      { toolbox: echoBox(), environment: environment(), hooks },
    );
    const result = await harness.agent.runConversation('go');
    expect(hooks.payloads('postLlmCall')).toEqual([
      {
        sessionId: result.sessionId,
        response: {
          text: '',
          toolCalls: [{ name: 'echo', arguments: '{"text":"a"}' }],
          model: 'scripted-model',
          finishReason: 'tool_calls',
          usage: { inputTokens: 120, outputTokens: 7 },
        },
      },
      {
        sessionId: result.sessionId,
        response: {
          text: 'all done',
          toolCalls: [],
          model: 'scripted-model',
          finishReason: 'stop',
          usage: { inputTokens: 150, outputTokens: 3 },
        },
      },
    ]);
    // After the call's usage was recorded: the first report comes before the tool ran.
    expect(hooks.order()).toEqual([
      'sessionStart',
      'preLlmCall',
      'postLlmCall',
      'preToolCall',
      'postToolCall',
      'postLlmCall',
    ]);
  });
});

describe('LLM hook containment', () => {
  it.each([
    ['throw', throwingHooks],
    ['return garbage', garbageHooks],
  ])('hooks that %s leave the turn and its request untouched', async (_label, make) => {
    const reported: string[] = [];
    harness = await startHarness(script().text('fine'), {
      toolbox: echoBox(),
      environment: environment(),
      hooks: make(),
      onHookError: (hook) => reported.push(hook),
    });
    const result = await harness.agent.runConversation('hello');
    expect(result.exitReason).toBe('completed');
    expect(result.finalResponse).toBe('fine');
    expect(userMessages(harness, 0)).toEqual(['hello']);
    expect(reported).toContain('preLlmCall');
  });
});
