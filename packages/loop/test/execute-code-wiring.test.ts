/**
 * `execute_code` wired by `createAgent`: a script's tool calls run through the agent's own tool
 * path — the tool hooks, the registry's dispatch and the command guard with its approval — and
 * their results come back into the script's output.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApprovalHandler } from '@hermes/approval';
import type { ApprovalDecision } from '@hermes/protocol';
import { script, startScriptedServer } from '@hermes/testkit';
import { describe, expect, it } from 'vitest';
import { type CreateAgentDeps, createAgent } from '../src/index.js';
import { RecordingHooks } from './support/recording-hooks.js';

type Body = { messages: { role: string; content: string }[] };

/** Denies every command and remembers what it was asked. */
class DenyingHandler extends ApprovalHandler {
  readonly asked: { command: string; reason: string }[] = [];
  async request(command: string, reason: string): Promise<ApprovalDecision> {
    this.asked.push({ command, reason });
    return 'deny';
  }
}

/** Runs one turn where the model calls `execute_code` with `code`; returns the script's result. */
async function runScript(code: string, deps: CreateAgentDeps, surface?: 'interactive') {
  const home = process.env.HERMES_HOME ?? '';
  const server = await startScriptedServer(
    script().toolCall('execute_code', { code }).next().text('finished'),
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
      ...(surface ? { approvalSurface: surface } : {}),
    },
    deps,
  );
  try {
    const result = await agent.runConversation('use a script');
    const tool = (server.requests[1]?.body as Body | undefined)?.messages.find(
      (m) => m.role === 'tool',
    );
    const outcome = JSON.parse(tool?.content ?? '{}') as {
      status?: string;
      output?: string;
      tool_calls_made?: number;
    };
    return { result, outcome };
  } finally {
    await close();
    await server.close();
  }
}

describe('execute_code in createAgent', () => {
  it('is offered to the model and runs a tool for the script through the tool hooks', async () => {
    const home = process.env.HERMES_HOME ?? '';
    const notes = join(home, 'notes.txt');
    writeFileSync(notes, 'the secret word is kumquat\n');
    const hooks = new RecordingHooks();
    const code = [
      "import { read_file } from 'hermes_tools';",
      `const text = await read_file({ path: ${JSON.stringify(notes)} });`,
      "console.log('GOT ' + text);",
    ].join('\n');
    const { result, outcome } = await runScript(code, { hooks, onHookError: () => undefined });
    expect(result.finalResponse).toBe('finished');
    expect(outcome.status).toBe('success');
    expect(outcome.tool_calls_made).toBe(1);
    expect(outcome.output).toContain('GOT ');
    expect(outcome.output).toContain('kumquat');
    // The script's call passed the same preToolCall / postToolCall hooks as the model's own.
    const tools = hooks.payloads('preToolCall').map((p) => (p as { toolName: string }).toolName);
    expect(tools).toEqual(['execute_code', 'read_file']);
    const post = hooks.payloads('postToolCall') as { toolName: string; result: string }[];
    expect(post.find((p) => p.toolName === 'read_file')?.result).toContain('kumquat');
  });

  it('a tool a preToolCall hook blocks does not run, and the script reads the block', async () => {
    const home = process.env.HERMES_HOME ?? '';
    const target = join(home, 'blocked.txt');
    const hooks = new RecordingHooks({
      preToolCall: (p: { toolName: string }) =>
        p.toolName === 'write_file' ? { block: 'policy: no writes from scripts' } : undefined,
    });
    const code = [
      "import { write_file } from 'hermes_tools';",
      `console.log('WROTE ' + await write_file({ path: ${JSON.stringify(target)}, content: 'x' }));`,
    ].join('\n');
    const { outcome } = await runScript(code, { hooks, onHookError: () => undefined });
    expect(outcome.output).toContain('WROTE policy: no writes from scripts');
    expect(existsSync(target)).toBe(false);
  });

  it('a dangerous terminal command from the script goes to approval; denied, it does not run', async () => {
    const home = process.env.HERMES_HOME ?? '';
    mkdirSync(join(home, 'build'), { recursive: true });
    writeFileSync(join(home, 'build', 'keep.txt'), 'still here');
    // Manual mode: the person rules (smart mode would ask a judge model first).
    writeFileSync(join(home, 'config.yaml'), 'approvals:\n  mode: manual\n');
    const handler = new DenyingHandler();
    const hooks = new RecordingHooks();
    const code = [
      "import { terminal } from 'hermes_tools';",
      "const out = await terminal({ command: 'rm -rf build' });",
      "console.log('TERMINAL ' + out);",
    ].join('\n');
    const { outcome } = await runScript(
      code,
      { approvalHandler: handler, hooks, onHookError: () => undefined },
      'interactive',
    );
    expect(handler.asked).toEqual([{ command: 'rm -rf build', reason: 'recursive delete' }]);
    expect(existsSync(join(home, 'build', 'keep.txt'))).toBe(true);
    expect(outcome.status).toBe('success');
    expect(outcome.output).toMatch(/TERMINAL .*denied/i);
    // The ruling passed through the approval hooks, inside the script's terminal call.
    const order = hooks
      .order()
      .filter((h) => h === 'preApproval' || h === 'postApproval' || h === 'preToolCall');
    expect(order).toEqual(['preToolCall', 'preToolCall', 'preApproval', 'postApproval']);
  });
});
