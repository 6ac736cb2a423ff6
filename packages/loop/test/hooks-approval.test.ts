/** preApproval / postApproval through createAgent's command approver. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { script, startScriptedServer } from '@hermes/testkit';
import { describe, expect, it } from 'vitest';
import { createAgent } from '../src/index.js';
import { RecordingHooks, throwingHooks } from './support/recording-hooks.js';

type Body = { messages: { role: string; content: string }[] };

async function runRm(hooks: RecordingHooks | ReturnType<typeof throwingHooks>) {
  const home = process.env.HERMES_HOME ?? '';
  mkdirSync(join(home, 'build'), { recursive: true });
  const server = await startScriptedServer(
    script().toolCall('terminal', { command: 'rm -rf build' }).next().text('could not'),
  );
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
    { hooks, onHookError: () => undefined },
  );
  try {
    const result = await agent.runConversation('clean the build folder');
    const tool = (server.requests[1]?.body as Body | undefined)?.messages.find(
      (m) => m.role === 'tool',
    );
    return { result, tool: tool?.content ?? '' };
  } finally {
    await close();
    await server.close();
  }
}

describe('preApproval / postApproval', () => {
  it('a command that needs approval on the single_query surface: pre, then post with block', async () => {
    const hooks = new RecordingHooks();
    const { result, tool } = await runRm(hooks);
    expect(result.finalResponse).toBe('could not');
    expect(tool).toContain('single_query_mode');
    const approvals = hooks.calls.filter(
      (c) => c.hook === 'preApproval' || c.hook === 'postApproval',
    );
    expect(approvals.map((c) => c.hook)).toEqual(['preApproval', 'postApproval']);
    expect(approvals[0]?.payload).toEqual({
      sessionId: result.sessionId,
      command: 'rm -rf build',
      reason: 'recursive delete',
      patternKeys: ['recursive_delete'],
    });
    expect(approvals[1]?.payload).toEqual({
      sessionId: result.sessionId,
      command: 'rm -rf build',
      decision: 'block',
      reason: expect.stringContaining('single_query_mode'),
      patternKeys: ['recursive_delete'],
    });
    // Observed inside the tool call, between its pre and post hooks.
    const order = hooks.order().filter((h) => h.includes('Approval') || h.includes('ToolCall'));
    expect(order).toEqual(['preToolCall', 'preApproval', 'postApproval', 'postToolCall']);
  });

  it('approval hooks that throw leave the ruling as it was', async () => {
    const { result, tool } = await runRm(throwingHooks());
    expect(result.exitReason).toBe('completed');
    expect(tool).toContain('single_query_mode');
  });
});
