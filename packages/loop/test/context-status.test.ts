/**
 * Agent.contextStatus(): how big the conversation is, for a host that decides about compression
 * before a turn (the gateway's hygiene). It must see a stored session the agent has not run a
 * turn on yet, without creating sessions or disturbing the next turn.
 */

import type { ContextEngineStatus } from '@hermes/context-engine';
import { LocalEnvironment } from '@hermes/environments';
import { script } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent } from '../src/index.js';
import { type Harness, KeepLastEngine, startHarness } from './support/harness.js';
import { TestToolbox } from './support/test-toolbox.js';

const environment = () => new LocalEnvironment({ loginShellEnv: false });

class WindowedEngine extends KeepLastEngine {
  override getStatus(): ContextEngineStatus {
    return { engine: this.name, compressionCount: 0, contextLength: 32_000 };
  }
}

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('Agent.contextStatus', () => {
  it('reports an empty conversation for a new agent and creates no session', async () => {
    harness = await startHarness(script().text('hi'), {
      toolbox: new TestToolbox({}),
      environment: environment(),
    });
    expect(await harness.agent.contextStatus()).toEqual({ messages: 0, estimatedTokens: 0 });
    expect(await harness.store.listSessions()).toEqual([]);
  });

  it('counts the messages and estimates the tokens after turns', async () => {
    harness = await startHarness(script().text('The answer is 42.'), {
      toolbox: new TestToolbox({}),
      environment: environment(),
      contextEngine: new WindowedEngine(),
    });
    await harness.agent.runConversation('What is the answer?');
    const status = await harness.agent.contextStatus();
    expect(status).toMatchObject({ messages: 2, contextLength: 32_000 });
    expect(status.estimatedTokens).toBeGreaterThan(0);
  });

  it('loads a stored session the agent has not run a turn on, and the next turn uses it', async () => {
    harness = await startHarness(script().text('First.').next().text('Second.'), {
      toolbox: new TestToolbox({}),
      environment: environment(),
    });
    await harness.agent.runConversation('one');
    const sessionId = harness.agent.sessionId as string;
    const before = await harness.agent.contextStatus();

    const resumed = new Agent({
      provider: harness.provider,
      model: 'scripted-model',
      sessionStore: harness.store,
      contextEngine: new KeepLastEngine(),
      tools: new TestToolbox({}),
      environment: environment(),
      sessionId,
      retryBaseMs: 1,
    });
    expect(await resumed.contextStatus()).toEqual(before);
    expect(before.messages).toBe(2);
    await resumed.runConversation('two');
    const body = harness.server.requests[1]?.body as { messages: { content: unknown }[] };
    const contents = body.messages.map((m) => m.content);
    expect(contents.filter((c) => c === 'one')).toHaveLength(1);
    expect(contents).toContain('First.');
    expect((await resumed.contextStatus()).messages).toBe(4);
  });

  it('reports nothing for a session id that is not stored, without creating it', async () => {
    harness = await startHarness(script().text('hi'), {
      toolbox: new TestToolbox({}),
      environment: environment(),
      sessionId: 'not-stored-yet',
    });
    expect(await harness.agent.contextStatus()).toEqual({ messages: 0, estimatedTokens: 0 });
    expect(await harness.store.getSession('not-stored-yet')).toBeUndefined();
  });
});
