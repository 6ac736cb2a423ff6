/** preToolCall / postToolCall: payloads, block, rewrite, replace, every kind of tool, containment. */
import { LocalEnvironment } from '@hermes/environments';
import type { AgentEvent } from '@hermes/protocol';
import { script } from '@hermes/testkit';
import { ToolRegistry } from '@hermes/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AgentHooks, RegistryToolbox } from '../src/index.js';
import { type Harness, KeepLastEngine, startHarness } from './support/harness.js';
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
const echoScript = () => script().toolCall('echo', { text: 'hi' }).next().text('done');
const toolMessageOf = (h: Harness, request = 1) =>
  (h.server.requests[request]?.body as Body | undefined)?.messages.find((m) => m.role === 'tool')
    ?.content;

async function run(hooks: AgentHooks, toolbox = echoBox(), extra = {}) {
  harness = await startHarness(echoScript(), {
    toolbox,
    environment: environment(),
    hooks,
    ...extra,
  });
  const result = await harness.agent.runConversation('echo hi please');
  return { h: harness, toolbox, result };
}

describe('preToolCall / postToolCall', () => {
  it('sees every call with its exact payload, before and after the tool runs', async () => {
    const hooks = new RecordingHooks();
    const { result, toolbox } = await run(hooks);
    expect(result.exitReason).toBe('completed');
    expect(toolbox.calls).toEqual([{ name: 'echo', args: { text: 'hi' } }]);
    expect(hooks.payloads('preToolCall')).toEqual([
      { toolName: 'echo', args: { text: 'hi' }, sessionId: result.sessionId },
    ]);
    expect(hooks.payloads('postToolCall')).toEqual([
      {
        toolName: 'echo',
        args: { text: 'hi' },
        result: 'echo:hi',
        status: 'ok',
        sessionId: result.sessionId,
      },
    ]);
  });

  it('a block stops the call: the tool never runs and the model reads the reason', async () => {
    const hooks = new RecordingHooks({ preToolCall: { block: 'echo is off limits' } });
    const events: AgentEvent[] = [];
    const toolbox = echoBox();
    harness = await startHarness(echoScript(), {
      toolbox,
      environment: environment(),
      hooks,
    });
    harness.agent.on('tool_call_end', (e) => events.push(e));
    const result = await harness.agent.runConversation('echo hi please');
    expect(result.finalResponse).toBe('done');
    expect(toolbox.calls).toHaveLength(0);
    expect(toolMessageOf(harness)).toBe('echo is off limits');
    expect(hooks.payloads('postToolCall')).toEqual([
      {
        toolName: 'echo',
        args: { text: 'hi' },
        result: 'echo is off limits',
        status: 'blocked',
        sessionId: result.sessionId,
      },
    ]);
    expect(events).toHaveLength(1);
    const rows = await harness.store.getMessages(result.sessionId);
    expect(rows.find((r) => r.message.role === 'tool')?.message.content).toBe('echo is off limits');
  });

  it('rewritten args reach the tool, and postToolCall sees the args the tool ran with', async () => {
    const hooks = new RecordingHooks({ preToolCall: { args: { text: 'rewritten' } } });
    const { h, toolbox } = await run(hooks);
    expect(toolbox.calls).toEqual([{ name: 'echo', args: { text: 'rewritten' } }]);
    expect(toolMessageOf(h)).toBe('echo:rewritten');
    expect(hooks.payloads('postToolCall')[0]).toMatchObject({
      args: { text: 'rewritten' },
      result: 'echo:rewritten',
    });
  });

  it('postToolCall replaces the text the model reads (and the stored result)', async () => {
    const hooks = new RecordingHooks({
      postToolCall: (p: { result: string }) => `${p.result} [audited]`,
    });
    const { h, result } = await run(hooks);
    expect(toolMessageOf(h)).toBe('echo:hi [audited]');
    const rows = await h.store.getMessages(result.sessionId);
    expect(rows.find((r) => r.message.role === 'tool')?.message.content).toBe('echo:hi [audited]');
  });

  it('a rewrite that breaks the schema is a validation error result, not a crash', async () => {
    const registry = new ToolRegistry();
    const counted: unknown[] = [];
    registry.register({
      name: 'count',
      toolset: 'hermes-cli',
      description: 'count to n',
      parameters: z.object({ n: z.number() }),
      handler: async (args: { n: number }) => {
        counted.push(args.n);
        return `counted to ${args.n}`;
      },
    });
    const hooks = new RecordingHooks({ preToolCall: { args: { n: 'many', extra: true } } });
    harness = await startHarness(script().toolCall('count', { n: 3 }).next().text('done'), {
      toolbox: new RegistryToolbox(registry),
      environment: environment(),
      hooks,
    });
    const result = await harness.agent.runConversation('count please');
    expect(result.exitReason).toBe('completed');
    expect(counted).toEqual([]);
    const post = hooks.payloads('postToolCall')[0] as { status: string; result: string };
    expect(post.status).toBe('error');
    expect(toolMessageOf(harness)).toBe(post.result);
    expect(post.result).toMatch(/\bn\b/);
  });

  it('covers loop tools (host-served) as well as toolbox tools', async () => {
    const hooks = new RecordingHooks();
    const ran: unknown[] = [];
    harness = await startHarness(script().toolCall('note', { text: 'x' }).next().text('done'), {
      toolbox: echoBox(),
      environment: environment(),
      hooks,
      loopTools: [
        {
          schema: {
            type: 'function',
            function: { name: 'note', description: 'a loop tool', parameters: {} },
          },
          run: async (args) => {
            ran.push(args);
            return 'noted';
          },
        },
      ],
    });
    const result = await harness.agent.runConversation('note it');
    expect(ran).toEqual([{ text: 'x' }]);
    expect(hooks.payloads('preToolCall')).toEqual([
      { toolName: 'note', args: { text: 'x' }, sessionId: result.sessionId },
    ]);
    expect(hooks.payloads('postToolCall')[0]).toMatchObject({ result: 'noted', status: 'ok' });
  });

  it("delegate_task and a child's own tool calls go through the same hooks", async () => {
    const hooks = new RecordingHooks();
    harness = await startHarness(
      script()
        .toolCall('delegate_task', { goal: 'child goal' })
        .match({ lastUserIncludes: 'parent' })
        .next()
        .toolCall('echo', { text: 'from child' })
        .match({ lastUserIncludes: 'child goal' })
        .next()
        .text('child done')
        .match({ lastUserIncludes: 'child goal' })
        .next()
        .text('parent done')
        .match({ lastUserIncludes: 'parent' }),
      {
        toolbox: echoBox(),
        environment: environment(),
        hooks,
        delegation: { createContextEngine: () => new KeepLastEngine() },
      },
    );
    const result = await harness.agent.runConversation('parent task');
    expect(result.finalResponse).toBe('parent done');
    const pre = hooks.payloads('preToolCall') as { toolName: string; sessionId: string }[];
    expect(pre.map((p) => p.toolName)).toEqual(['delegate_task', 'echo']);
    expect(pre[0]?.sessionId).toBe(result.sessionId);
    const [child] = await harness.store.listSessions({ parentSessionId: result.sessionId });
    expect(pre[1]?.sessionId).toBe(child?.id);
    expect(hooks.payloads('postToolCall')[0]).toMatchObject({
      toolName: 'echo',
      result: 'echo:from child',
      sessionId: child?.id,
    });
  });

  it('hooks that throw or return garbage never break the turn, and throws are reported', async () => {
    const reported: string[] = [];
    const throwing = await run(throwingHooks(), echoBox(), {
      onHookError: (hook: string) => reported.push(hook),
    });
    expect(throwing.result.exitReason).toBe('completed');
    expect(throwing.toolbox.calls).toEqual([{ name: 'echo', args: { text: 'hi' } }]);
    expect(toolMessageOf(throwing.h)).toBe('echo:hi');
    expect(reported).toContain('preToolCall');
    expect(reported).toContain('postToolCall');
    await harness?.close();
    harness = undefined;
    const garbage = await run(garbageHooks(), echoBox(), { onHookError: () => undefined });
    expect(garbage.result.exitReason).toBe('completed');
    expect(garbage.toolbox.calls).toEqual([{ name: 'echo', args: { text: 'hi' } }]);
    expect(toolMessageOf(garbage.h)).toBe('echo:hi');
  });
});
