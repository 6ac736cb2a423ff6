import { LocalEnvironment } from '@hermes/environments';
import { waitFor } from '@hermes/protocol/testing';
import { faults, script } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { SUMMARY_REQUEST } from '../src/turn/finalize.js';
import { FailingStore } from './support/failing-store.js';
import { type Harness, startHarness } from './support/harness.js';
import { TestToolbox } from './support/test-toolbox.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const environment = () => new LocalEnvironment({ loginShellEnv: false });
const echo = () => new TestToolbox({ echo: { run: (a) => `echo:${JSON.stringify(a)}` } });
type Body = { messages: { role: string; content: string }[]; tools?: unknown[] };
const bodyOf = (h: Harness, i: number) => h.server.requests[i]?.body as Body;

describe('exit reasons', () => {
  it('max_iterations_reached: one tool-less summary call writes the answer', async () => {
    harness = await startHarness(
      script()
        .toolCall('echo', { n: 1 })
        .next()
        .toolCall('echo', { n: 2 })
        .next()
        .text('Progress: 2 echoes.'),
      { toolbox: echo(), environment: environment(), maxIterations: 2 },
    );
    const result = await harness.agent.runConversation('loop');
    expect(result.exitReason).toBe('max_iterations_reached');
    expect(result.finalResponse).toBe('Progress: 2 echoes.');
    expect(result.completed).toBe(true);
    const last = bodyOf(harness, 2);
    expect(last.tools).toBeUndefined();
    expect(last.messages.at(-1)?.content).toBe(SUMMARY_REQUEST);
    const rows = await harness.store.getMessages(result.sessionId);
    expect(rows.at(-1)?.message.content).toBe('Progress: 2 echoes.');
    expect(rows.some((r) => r.message.content === SUMMARY_REQUEST)).toBe(false);
  });

  it('all_retries_exhausted_no_response after three server errors', async () => {
    harness = await startHarness(script().fault(faults.serverError()).times(3), {
      toolbox: echo(),
      environment: environment(),
    });
    const result = await harness.agent.runConversation('hi');
    expect(result.exitReason).toBe('all_retries_exhausted_no_response');
    expect(result.failed).toBe(true);
    expect(harness.server.requests).toHaveLength(3);
    const rows = await harness.store.getMessages(result.sessionId);
    expect(rows.map((r) => r.message.content)).toEqual(['hi']);
  });

  it('interrupted_during_api_call keeps the user message', async () => {
    harness = await startHarness(script().fault(faults.stall()), {
      toolbox: echo(),
      environment: environment(),
    });
    const h = harness;
    const turn = h.agent.runConversation('wait');
    expect(await waitFor(() => h.server.requests.length === 1, 15_000)).toBe(true);
    // The stalled stream never ends, so only the interrupt can end the turn; how fast it does is
    // measured by bench/interrupt.mjs.
    h.agent.interrupt();
    const result = await turn;
    expect(result.exitReason).toBe('interrupted_during_api_call');
    expect(result.interrupted).toBe(true);
  });

  it('interrupted_by_user when the interrupt arrives while tools run', async () => {
    const toolbox = new TestToolbox({
      stop: {
        run: () => {
          harness?.agent.interrupt();
          return 'stopping';
        },
      },
    });
    harness = await startHarness(script().toolCall('stop', {}).next().text('never'), {
      toolbox,
      environment: environment(),
    });
    const result = await harness.agent.runConversation('stop yourself');
    expect(result.exitReason).toBe('interrupted_by_user');
    expect(harness.server.requests).toHaveLength(1);
    const rows = await harness.store.getMessages(result.sessionId);
    expect(rows.at(-1)?.message.role).toBe('tool');
  });

  it('session_persistence_failed: no tool runs when the tool call cannot be saved', async () => {
    const toolbox = echo();
    harness = await startHarness(script().toolCall('echo', { x: 1 }).next().text('x'), {
      toolbox,
      environment: environment(),
    });
    const store = new FailingStore(harness.store, (m) => m.role === 'assistant');
    const { Agent } = await import('../src/index.js');
    const agent = new Agent({
      provider: harness.provider,
      model: 'scripted-model',
      sessionStore: store,
      contextEngine: harness.engine,
      tools: toolbox,
      environment: environment(),
      hermesHome: process.env.HERMES_HOME ?? '',
    });
    const result = await agent.runConversation('do it');
    expect(result.exitReason).toBe('session_persistence_failed');
    expect(result.failed).toBe(true);
    expect(toolbox.calls).toHaveLength(0);
    expect(result.error).toContain('disk full');
  });

  it('repeated_outer_errors after eight failures while processing responses', async () => {
    const toolbox = echo();
    toolbox.plan = () => {
      throw new Error('scheduler bug');
    };
    harness = await startHarness(script().toolCall('echo', { n: 1 }).times(20), {
      toolbox,
      environment: environment(),
    });
    const result = await harness.agent.runConversation('go');
    expect(result.exitReason).toBe('repeated_outer_errors');
    expect(result.apiCalls).toBe(8);
    expect(result.error).toBe('scheduler bug');
    const rows = await harness.store.getMessages(result.sessionId);
    const assistants = rows.filter((r) => r.message.role === 'assistant').length;
    const tools = rows.filter((r) => r.message.role === 'tool').length;
    expect(tools).toBe(assistants); // every call got a (stub) result
  });

  it('guardrail_halt when the same call repeats past the hard stop', async () => {
    harness = await startHarness(script().toolCall('echo', { same: true }).times(5), {
      toolbox: echo(),
      environment: environment(),
      guardrails: { haltAfter: 2 },
    });
    const result = await harness.agent.runConversation('repeat');
    expect(result.exitReason).toBe('guardrail_halt');
    expect(harness.server.requests).toHaveLength(2);
  });

  it('compression_exhausted when the context stays too long', async () => {
    harness = await startHarness(script().fault(faults.contextLength(1000, 5000)).times(5), {
      toolbox: echo(),
      environment: environment(),
    });
    const result = await harness.agent.runConversation('big');
    expect(result.exitReason).toBe('compression_exhausted');
    expect(harness.engine.compressions).toBe(2);
  });

  it('error after repeated invalid tool-call JSON, each answered with an error result', async () => {
    const toolbox = echo();
    harness = await startHarness(script().toolCall('echo', '{"broken": ').times(5), {
      toolbox,
      environment: environment(),
    });
    const result = await harness.agent.runConversation('json');
    expect(result.exitReason).toBe('error');
    expect(toolbox.calls).toHaveLength(0);
    const second = bodyOf(harness, 1);
    expect(second.messages.at(-1)?.content).toContain('not valid JSON');
  });
});
