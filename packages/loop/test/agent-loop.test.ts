import { LocalEnvironment } from '@hermes/environments';
import type { AgentEvent } from '@hermes/protocol';
import { script } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './support/harness.js';
import { TestToolbox } from './support/test-toolbox.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const environment = () => new LocalEnvironment({ loginShellEnv: false });

describe('Agent tool loop', () => {
  it('runs a multi-iteration tool loop and persists every message', async () => {
    const toolbox = new TestToolbox({ echo: { run: (args) => `echo:${String(args.text)}` } });
    harness = await startHarness(
      script()
        .toolCall('echo', { text: 'one' })
        .usage({ inputTokens: 100, outputTokens: 5 })
        .next()
        .toolCall('echo', { text: 'two' })
        .next()
        .text('All done.'),
      { toolbox, environment: environment() },
    );
    const events: AgentEvent[] = [];
    harness.agent.on('event', (e) => events.push(e));
    const result = await harness.agent.runConversation('please echo twice');
    expect(result.exitReason).toBe('completed');
    expect(result.finalResponse).toBe('All done.');
    expect(result.apiCalls).toBe(3);
    expect(result.usage.inputTokens).toBe(100);
    expect(toolbox.calls.map((c) => c.args.text)).toEqual(['one', 'two']);
    const rows = await harness.store.getMessages(result.sessionId);
    expect(rows.map((r) => r.message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
    ]);
    const second = harness.server.requests[1]?.body as {
      messages: { role: string; content: string }[];
    };
    expect(second.messages[0]?.role).toBe('system');
    expect(second.messages.some((m) => m.role === 'tool' && m.content === 'echo:one')).toBe(true);
    expect(events.map((e) => e.type)).toContain('tool_call_end');
    expect(events.at(-1)?.type).toBe('turn_end');
  });

  it('persists the assistant tool call before the tool runs', async () => {
    let seenBeforeRun: string[] = [];
    const toolbox = new TestToolbox({
      probe: {
        run: async (_args, ctx) => {
          const rows = (await harness?.store.getMessages(ctx.sessionId)) ?? [];
          seenBeforeRun = rows.map((r) => r.message.role);
          return 'ok';
        },
      },
    });
    harness = await startHarness(script().toolCall('probe', {}).next().text('fine'), {
      toolbox,
      environment: environment(),
    });
    await harness.agent.runConversation('probe it');
    expect(seenBeforeRun).toEqual(['user', 'assistant']);
  });

  it('continues the same session across turns and reuses the stored system prompt', async () => {
    const toolbox = new TestToolbox({});
    harness = await startHarness(script().text('first').next().text('second'), {
      toolbox,
      environment: environment(),
    });
    const a = await harness.agent.runConversation('hello');
    const b = await harness.agent.runConversation('again');
    expect(b.sessionId).toBe(a.sessionId);
    const [r1, r2] = harness.server.requests.map(
      (r) => (r.body as { messages: { content: string }[] }).messages,
    );
    expect(r2?.[0]?.content).toBe(r1?.[0]?.content);
    expect(r2?.map((m) => m.content)).toEqual([`${r1?.[0]?.content}`, 'hello', 'first', 'again']);
  });
});
