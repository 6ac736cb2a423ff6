import { LocalEnvironment } from '@hermes/environments';
import type { AgentEvent } from '@hermes/protocol';
import { script } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { WRAP_UP_NOTE } from '../src/index.js';
import { type Harness, startHarness } from './support/harness.js';
import { TestToolbox } from './support/test-toolbox.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const environment = () => new LocalEnvironment({ loginShellEnv: false });
type Body = { messages: { role: string; content: string; tool_calls?: unknown[] }[] };
const bodyOf = (h: Harness, i: number) => h.server.requests[i]?.body as Body;

describe('events', () => {
  it('stream() yields the turn events in order and returns the result', async () => {
    harness = await startHarness(script().toolCall('echo', {}).next().text('streamed answer'), {
      toolbox: new TestToolbox({ echo: { run: () => 'e' } }),
      environment: environment(),
    });
    const types: string[] = [];
    const stream = harness.agent.stream('go');
    let next = await stream.next();
    while (!next.done) {
      types.push(next.value.type);
      next = await stream.next();
    }
    expect(next.value.finalResponse).toBe('streamed answer');
    expect(types[0]).toBe('turn_start');
    expect(types.at(-1)).toBe('turn_end');
    expect(types.indexOf('tool_call_start')).toBeLessThan(types.indexOf('tool_call_end'));
    expect(types.filter((t) => t === 'iteration_start')).toHaveLength(2);
    expect(types).toContain('text_delta');
  });

  it('a throwing listener is reported and ignored; the turn completes', async () => {
    const reported: string[] = [];
    harness = await startHarness(script().text('still fine'), {
      toolbox: new TestToolbox({}),
      environment: environment(),
      onListenerError: (_error, event) => reported.push(event.type),
    });
    harness.agent.on('event', () => {
      throw new Error('observer bug');
    });
    const result = await harness.agent.runConversation('hello');
    expect(result.finalResponse).toBe('still fine');
    expect(reported).toContain('turn_start');
    expect(reported).toContain('turn_end');
  });
});

describe('response repair', () => {
  it('repairs a misspelled tool name and drops an identical duplicate call', async () => {
    const toolbox = new TestToolbox({ read_notes: { run: () => 'notes' } });
    harness = await startHarness(
      script()
        .toolCall('Read-Notes', { a: 1 }, 'c1')
        .toolCall('Read-Notes', { a: 1 }, 'c2')
        .next()
        .text('ok'),
      { toolbox, environment: environment() },
    );
    await harness.agent.runConversation('read');
    expect(toolbox.calls.map((c) => c.name)).toEqual(['read_notes']);
    const second = bodyOf(harness, 1);
    const assistant = second.messages.find((m) => m.role === 'assistant');
    expect(assistant?.tool_calls).toHaveLength(1);
    expect(second.messages.filter((m) => m.role === 'tool')).toHaveLength(1);
  });

  it('answers an unknown tool with the list of available tools', async () => {
    harness = await startHarness(script().toolCall('launch_rocket', {}).next().text('sorry'), {
      toolbox: new TestToolbox({ echo: { run: () => 'e' } }),
      environment: environment(),
    });
    await harness.agent.runConversation('launch');
    const tool = bodyOf(harness, 1).messages.find((m) => m.role === 'tool');
    expect(tool?.content).toContain('no tool named "launch_rocket"');
    expect(tool?.content).toContain('Available tools: echo');
  });
});

describe('guardrails and budgets', () => {
  it('warns the model on the third identical call', async () => {
    harness = await startHarness(
      script().toolCall('echo', { same: 1 }).times(3).next().text('stopping'),
      { toolbox: new TestToolbox({ echo: { run: () => 'e' } }), environment: environment() },
    );
    const result = await harness.agent.runConversation('repeat');
    expect(result.exitReason).toBe('completed');
    const last = bodyOf(harness, 3).messages.filter((m) => m.role === 'tool');
    expect(last.at(-1)?.content).toContain('[Guardrail:');
    expect(last[0]?.content).not.toContain('[Guardrail:');
  });

  it('appends the run-budget wrap-up note once, to a tool result', async () => {
    harness = await startHarness(
      script()
        .toolCall('slow', { n: 1 })
        .next()
        .toolCall('slow', { n: 2 })
        .next()
        .text('wrapped up'),
      {
        toolbox: new TestToolbox({
          slow: { run: () => new Promise((r) => setTimeout(() => r('done'), 900)) },
        }),
        environment: environment(),
        runBudgetSeconds: 1,
      },
    );
    const events: AgentEvent[] = [];
    harness.agent.on('event', (e) => events.push(e));
    const result = await harness.agent.runConversation('work');
    expect(result.finalResponse).toBe('wrapped up');
    const second = bodyOf(harness, 1).messages;
    expect(second.filter((m) => m.role === 'tool').at(-1)?.content).toContain(WRAP_UP_NOTE);
    const third = bodyOf(harness, 2).messages;
    const notes = third.filter((m) => m.content?.includes?.(WRAP_UP_NOTE));
    expect(notes).toHaveLength(1);
    expect(third.filter((m) => m.role === 'user')).toHaveLength(1);
  });
});
