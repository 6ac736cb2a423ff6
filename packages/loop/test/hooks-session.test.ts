/** sessionStart / sessionEnd, and subagentStart / subagentStop around delegate_task children. */
import { LocalEnvironment } from '@hermes/environments';
import { script, startScriptedServer } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, createAgent } from '../src/index.js';
import { type Harness, KeepLastEngine, startHarness } from './support/harness.js';
import { RecordingHooks, throwingHooks } from './support/recording-hooks.js';
import { TestToolbox } from './support/test-toolbox.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const environment = () => new LocalEnvironment({ loginShellEnv: false });
const sessionHooks = (hooks: RecordingHooks) =>
  hooks.calls.filter((c) => c.hook === 'sessionStart' || c.hook === 'sessionEnd');

describe('sessionStart / sessionEnd', () => {
  it('start once per session at its first turn; end at resetSession and endSession', async () => {
    const hooks = new RecordingHooks();
    harness = await startHarness(script().text('a').next().text('b').next().text('c'), {
      toolbox: new TestToolbox({}),
      environment: environment(),
      hooks,
    });
    const { agent } = harness;
    await agent.resetSession(); // nothing started yet: nothing ends
    await agent.endSession();
    expect(hooks.calls).toEqual([]);
    const first = await agent.runConversation('one');
    await agent.runConversation('two');
    await agent.resetSession();
    const third = await agent.runConversation('three');
    await agent.endSession();
    await agent.endSession(); // already ended
    expect(third.sessionId).not.toBe(first.sessionId);
    expect(sessionHooks(hooks)).toEqual([
      { hook: 'sessionStart', payload: { sessionId: first.sessionId, platform: 'cli' } },
      { hook: 'sessionEnd', payload: { sessionId: first.sessionId, platform: 'cli' } },
      { hook: 'sessionStart', payload: { sessionId: third.sessionId, platform: 'cli' } },
      { hook: 'sessionEnd', payload: { sessionId: third.sessionId, platform: 'cli' } },
    ]);
  });

  it('a resumed session starts at its first turn in this agent, on its platform', async () => {
    harness = await startHarness(script().text('a').next().text('b'), {
      toolbox: new TestToolbox({}),
      environment: environment(),
    });
    const earlier = await harness.agent.runConversation('before');
    const hooks = new RecordingHooks();
    const resumed = new Agent({
      provider: harness.provider,
      model: 'scripted-model',
      tools: new TestToolbox({}),
      sessionStore: harness.store,
      contextEngine: new KeepLastEngine(),
      environment: environment(),
      sessionId: earlier.sessionId,
      platform: 'telegram',
      hooks,
    });
    expect(hooks.calls).toEqual([]); // building the agent starts nothing
    await resumed.runConversation('after');
    expect(sessionHooks(hooks)).toEqual([
      { hook: 'sessionStart', payload: { sessionId: earlier.sessionId, platform: 'telegram' } },
    ]);
  });

  it("createAgent's close() ends the started session", async () => {
    const server = await startScriptedServer(script().text('hi'));
    const hooks = new RecordingHooks();
    const home = process.env.HERMES_HOME ?? '';
    const { agent, close } = createAgent(
      {
        provider: {
          provider: 'openai',
          model: 'scripted-model',
          apiKey: 'k',
          baseUrl: server.baseUrl('openai-chat'),
        },
        hermesHome: home,
        cwd: home,
        // No title request: it would take one of the scripted answers.
        learning: { titles: false },
      },
      { hooks },
    );
    try {
      const result = await agent.runConversation('hello');
      await close();
      expect(sessionHooks(hooks).map((c) => [c.hook, c.payload])).toEqual([
        ['sessionStart', { sessionId: result.sessionId, platform: 'cli' }],
        ['sessionEnd', { sessionId: result.sessionId, platform: 'cli' }],
      ]);
    } finally {
      await server.close();
    }
  });

  it('session hooks that throw break neither turns nor resets', async () => {
    const reported: string[] = [];
    harness = await startHarness(script().text('a').next().text('b'), {
      toolbox: new TestToolbox({}),
      environment: environment(),
      hooks: throwingHooks(),
      onHookError: (hook) => reported.push(hook),
    });
    expect((await harness.agent.runConversation('one')).exitReason).toBe('completed');
    await harness.agent.resetSession();
    expect((await harness.agent.runConversation('two')).exitReason).toBe('completed');
    expect(reported.filter((h) => h === 'sessionStart')).toHaveLength(2);
    expect(reported).toContain('sessionEnd');
  });
});

describe('subagentStart / subagentStop', () => {
  it('wrap each child with the goal, its exit reason and its answer', async () => {
    const hooks = new RecordingHooks();
    harness = await startHarness(
      script()
        .toolCall('delegate_task', { tasks: [{ goal: 'goal A' }, { goal: 'goal B' }] })
        .match({ lastUserIncludes: 'parent' })
        .next()
        .text('answer A')
        .match({ lastUserIncludes: 'goal A' })
        .next()
        .text('answer B')
        .match({ lastUserIncludes: 'goal B' })
        .next()
        .text('parent done')
        .match({ lastUserIncludes: 'parent' }),
      {
        toolbox: new TestToolbox({}),
        environment: environment(),
        hooks,
        delegation: { createContextEngine: () => new KeepLastEngine() },
      },
    );
    const result = await harness.agent.runConversation('parent task');
    expect(result.finalResponse).toBe('parent done');
    const parentSessionId = result.sessionId;
    const starts = hooks.payloads('subagentStart');
    expect(starts).toHaveLength(2);
    expect(starts).toEqual(
      expect.arrayContaining([
        { parentSessionId, goal: 'goal A' },
        { parentSessionId, goal: 'goal B' },
      ]),
    );
    expect(hooks.payloads('subagentStop')).toEqual(
      expect.arrayContaining([
        { parentSessionId, goal: 'goal A', exitReason: 'completed', summary: 'answer A' },
        { parentSessionId, goal: 'goal B', exitReason: 'completed', summary: 'answer B' },
      ]),
    );
    // Children report through the subagent hooks, not as sessions of their own.
    expect(hooks.payloads('sessionStart')).toEqual([
      { sessionId: parentSessionId, platform: 'cli' },
    ]);
  });

  it('a child that fails to start still stops, as failed with the error', async () => {
    const hooks = new RecordingHooks();
    harness = await startHarness(
      script().toolCall('delegate_task', { goal: 'doomed' }).next().text('parent done'),
      {
        toolbox: new TestToolbox({}),
        environment: environment(),
        hooks,
        delegation: {
          createContextEngine: () => {
            throw new Error('no engine for you');
          },
        },
      },
    );
    const result = await harness.agent.runConversation('parent task');
    expect(result.finalResponse).toBe('parent done');
    expect(hooks.payloads('subagentStart')).toEqual([
      { parentSessionId: result.sessionId, goal: 'doomed' },
    ]);
    expect(hooks.payloads('subagentStop')).toEqual([
      {
        parentSessionId: result.sessionId,
        goal: 'doomed',
        exitReason: 'failed',
        summary: 'no engine for you',
      },
    ]);
  });
});
