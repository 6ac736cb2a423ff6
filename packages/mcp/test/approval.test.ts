import type { ToolContext } from '@hermes/tools';
import { describe, expect, it } from 'vitest';
import type { CommandApprovalLike, CommandApprovalRequestLike } from '../src/index.js';
import { callSpec, fixtureEntry, specNamed, startHub, toolContext } from './helpers.js';

/** A CommandApproval that records each request and answers with a fixed ruling. */
class RecordingApproval implements CommandApprovalLike {
  readonly requests: { command: string; request: CommandApprovalRequestLike }[] = [];
  constructor(private readonly allow: boolean) {}
  async approve(command: string, request: CommandApprovalRequestLike) {
    this.requests.push({ command, request });
    return this.allow
      ? {
          allowed: true,
          verdict: { decision: 'allow' as const, stage: 'human' as const, reason: 'approved' },
        }
      : {
          allowed: false,
          verdict: {
            decision: 'block' as const,
            stage: 'human' as const,
            reason: 'the user said no',
          },
        };
  }
  checkFileWrite() {
    return { decision: 'allow' as const, stage: 'no_match' as const, reason: 'ok' };
  }
}

function ctxWith(
  approval: RecordingApproval | undefined,
  extra: Partial<ToolContext> = {},
): ToolContext {
  return toolContext({ ...(approval ? { approval } : {}), ...extra });
}

describe('approval modes', () => {
  it('auto: a shell-like tool with a command goes through the approver; a refusal never reaches the server', async () => {
    const hub = await startHub({ t: fixtureEntry('normal', { approval: 'auto' }) });
    const specs = hub.toolSpecs();
    const refusing = new RecordingApproval(false);
    const refused = await callSpec(
      specNamed(specs, 'mcp_t_run_command'),
      { command: 'rm -rf /tmp/x' },
      ctxWith(refusing),
    );
    expect(refused).toMatch(/^BLOCKED \(human\): the user said no\nCommand: rm -rf \/tmp\/x\n/);
    expect(refusing.requests).toEqual([
      {
        command: 'rm -rf /tmp/x',
        request: expect.objectContaining({
          sessionId: 'mcp-test',
          surface: 'single_query',
          toolName: 'mcp_t_run_command',
        }),
      },
    ]);
    const allowing = new RecordingApproval(true);
    const ran = await callSpec(
      specNamed(specs, 'mcp_t_run_command'),
      { command: 'ls' },
      ctxWith(allowing, { approvalSurface: 'interactive' }),
    );
    expect(ran).toBe('ran: ls');
    expect(allowing.requests[0]?.request.surface).toBe('interactive');
    // A tool that does not look like a shell runs without asking.
    expect(await callSpec(specNamed(specs, 'mcp_t_lookup'), { word: 'x' }, ctxWith(allowing))).toBe(
      'found: x',
    );
    expect(allowing.requests).toHaveLength(1);
  });

  it('auto without an approval layer refuses shell-like calls (fail closed)', async () => {
    const hub = await startHub({ t: fixtureEntry() });
    const text = await callSpec(
      specNamed(hub.toolSpecs(), 'mcp_t_run_command'),
      { command: 'ls' },
      ctxWith(undefined),
    );
    expect(text).toMatch(
      /^BLOCKED: mcp_t_run_command needs command approval, and this session has no approval layer/,
    );
  });

  it('always: every call asks, with the command or an `mcp <server> <tool> <args>` line', async () => {
    const hub = await startHub({ t: fixtureEntry('normal', { approval: 'always' }) });
    const specs = hub.toolSpecs();
    const approval = new RecordingApproval(true);
    expect(await callSpec(specNamed(specs, 'mcp_t_lookup'), { word: 'w' }, ctxWith(approval))).toBe(
      'found: w',
    );
    expect(
      await callSpec(specNamed(specs, 'mcp_t_run_command'), { command: 'pwd' }, ctxWith(approval)),
    ).toBe('ran: pwd');
    expect(approval.requests.map((r) => r.command)).toEqual(['mcp t lookup {"word":"w"}', 'pwd']);
    const none = await callSpec(
      specNamed(specs, 'mcp_t_lookup'),
      { word: 'w' },
      ctxWith(undefined),
    );
    expect(none).toMatch(/^BLOCKED: /);
  });

  it('never: calls run without asking, even shell-like ones', async () => {
    const hub = await startHub({ t: fixtureEntry('normal', { approval: 'never' }) });
    const approval = new RecordingApproval(false);
    const text = await callSpec(
      specNamed(hub.toolSpecs(), 'mcp_t_run_command'),
      { command: 'ls' },
      ctxWith(approval),
    );
    expect(text).toBe('ran: ls');
    expect(approval.requests).toEqual([]);
  });
});
