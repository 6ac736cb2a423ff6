import { LocalEnvironment } from '@hermes/environments';
import { waitFor } from '@hermes/protocol/testing';
import { faults, script } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, KeepLastEngine, startHarness } from './support/harness.js';
import { TestToolbox } from './support/test-toolbox.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

type Body = {
  messages: { role: string; content: string }[];
  tools?: { function: { name: string } }[];
};
const toolbox = () =>
  new TestToolbox({
    echo: { run: () => 'SECRET-CHILD-OUTPUT' },
    clarify: { run: () => 'never' },
    memory: { run: () => 'never' },
    execute_code: { run: () => 'never' },
  });
const delegation = { createContextEngine: () => new KeepLastEngine() };

describe('delegate_task', () => {
  it('runs children in parallel and returns only their summaries', async () => {
    harness = await startHarness(
      script()
        .toolCall('delegate_task', {
          tasks: [{ goal: 'goal A' }, { goal: 'goal B', context: 'ctx B' }],
        })
        .match({ lastUserIncludes: 'delegate both' })
        .next()
        .toolCall('echo', {})
        .match({ lastUserIncludes: 'goal A' })
        .usage({ inputTokens: 10 })
        .next()
        .text('child A done')
        .match({ lastUserIncludes: 'goal A' })
        .next()
        .text('child B done')
        .match({ lastUserIncludes: 'goal B' })
        .usage({ inputTokens: 7 })
        .next()
        .text('both finished')
        .match({ lastUserIncludes: 'delegate both' }),
      {
        toolbox: toolbox(),
        environment: new LocalEnvironment({ loginShellEnv: false }),
        delegation,
      },
    );
    const result = await harness.agent.runConversation('delegate both tasks');
    expect(result.finalResponse).toBe('both finished');
    expect(result.usage.inputTokens).toBe(17);
    const last = harness.server.requests.at(-1)?.body as Body;
    const toolMessage = last.messages.find((m) => m.role === 'tool');
    expect(toolMessage?.content).toContain('child A done');
    expect(toolMessage?.content).toContain('child B done');
    expect(JSON.stringify(last)).not.toContain('SECRET-CHILD-OUTPUT');
    const childRequest = harness.server.requests.find((r) =>
      JSON.stringify(r.body).includes('goal B'),
    )?.body as Body;
    expect(childRequest.messages.at(-1)?.content).toContain('ctx B');
    const childTools = (childRequest.tools ?? []).map((t) => t.function.name).sort();
    expect(childTools).toEqual(['echo']);
    const children = await harness.store.listSessions({ parentSessionId: result.sessionId });
    expect(children).toHaveLength(2);
  });

  it('rejects a batch larger than the limit without starting any child', async () => {
    const tasks = [1, 2, 3, 4].map((n) => ({ goal: `g${n}` }));
    harness = await startHarness(script().toolCall('delegate_task', { tasks }).next().text('ok'), {
      toolbox: toolbox(),
      environment: new LocalEnvironment({ loginShellEnv: false }),
      delegation,
    });
    const result = await harness.agent.runConversation('too many');
    expect(result.finalResponse).toBe('ok');
    expect(harness.server.requests).toHaveLength(2);
    const body = harness.server.requests[1]?.body as Body;
    expect(body.messages.find((m) => m.role === 'tool')?.content).toContain('at most 3');
  });

  it('interrupting the parent interrupts its children', async () => {
    harness = await startHarness(
      script()
        .toolCall('delegate_task', { goal: 'slow child' })
        .match({ lastUserIncludes: 'parent' })
        .next()
        .fault(faults.stall())
        .match({ lastUserIncludes: 'slow child' }),
      {
        toolbox: toolbox(),
        environment: new LocalEnvironment({ loginShellEnv: false }),
        delegation,
      },
    );
    const h = harness;
    const turn = h.agent.runConversation('parent task');
    expect(
      await waitFor(
        () => h.agent.activeChildren.length === 1 && h.server.requests.length === 2,
        15_000,
      ),
    ).toBe(true);
    h.agent.interrupt();
    const result = await turn;
    expect(result.interrupted).toBe(true);
    expect(h.agent.activeChildren).toHaveLength(0);
    const rows = await h.store.getMessages(result.sessionId);
    expect(rows.at(-1)?.message.role).toBe('tool');
  });
});
