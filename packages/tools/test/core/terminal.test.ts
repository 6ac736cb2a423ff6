import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommandApproval, CommandApprovalRequest } from '@hermes/approval';
import { LocalEnvironment } from '@hermes/environments';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createProcessTool } from '../../src/core/process.js';
import { processTablePerEnvironment } from '../../src/core/process-table.js';
import { createTerminalTool } from '../../src/core/terminal.js';
import { call, makeContext, text } from './context.js';

let dir: string;
let env: LocalEnvironment;
const processes = processTablePerEnvironment();
const terminal = createTerminalTool({ processes });
const processTool = createProcessTool(processes);

/** Allows everything except commands containing "forbidden"; records every request. */
function recordingApproval(): CommandApproval & {
  requests: Array<[string, CommandApprovalRequest]>;
} {
  const requests: Array<[string, CommandApprovalRequest]> = [];
  return {
    requests,
    approve: async (command, request) => {
      requests.push([command, request]);
      return command.includes('forbidden')
        ? {
            allowed: false,
            verdict: {
              decision: 'block',
              stage: 'user_deny',
              reason: 'matches a deny rule',
              recovery: 'ask the user',
            },
          }
        : { allowed: true, verdict: { decision: 'allow', stage: 'no_match', reason: 'ok' } };
    },
    checkFileWrite: () => ({ decision: 'allow', stage: 'write_guard', reason: 'ok' }),
  };
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hermes-term-'));
  env = new LocalEnvironment({ cwd: dir, loginShellEnv: false });
});
afterEach(async () => {
  await processes(env).dispose();
  await env.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

describe('terminal', () => {
  it('asks approval with the session facts, then runs and renders output and exit code', async () => {
    const approval = recordingApproval();
    const ctx = makeContext({ environment: env, approval, platform: 'telegram' });
    const out = await text(
      call(terminal, { command: 'echo hi; echo err >&2; exit 3', workdir: dir }, ctx),
    );
    expect(out).toBe('hi\nerr\n[exit code 3]');
    expect(approval.requests).toHaveLength(1);
    expect(approval.requests[0]?.[1]).toMatchObject({
      sessionId: 'session-1',
      platform: 'telegram',
      cwd: dir,
      toolName: 'terminal',
      surface: 'interactive',
    });
  });

  it('uses the cron surface on the cron platform', async () => {
    const approval = recordingApproval();
    await call(
      terminal,
      { command: 'true' },
      makeContext({ environment: env, approval, platform: 'cron' }),
    );
    expect(approval.requests[0]?.[1].surface).toBe('cron');
  });

  it('fails closed without an approval layer: nothing runs', async () => {
    await expect(
      call(terminal, { command: 'touch ran.txt' }, makeContext({ environment: env })),
    ).rejects.toThrow(/no command approval layer/);
    expect(existsSync(join(dir, 'ran.txt'))).toBe(false);
  });

  it('refuses a blocked command with the reason and recovery, and runs nothing', async () => {
    const ctx = makeContext({ environment: env, approval: recordingApproval() });
    await expect(call(terminal, { command: 'touch forbidden.txt' }, ctx)).rejects.toThrow(
      /BLOCKED \(user_deny\): matches a deny rule[\s\S]*ask the user/,
    );
    expect(existsSync(join(dir, 'forbidden.txt'))).toBe(false);
  });

  it('enforces the timeout bounds and kills a command that overruns', async () => {
    const ctx = makeContext({ environment: env, approval: recordingApproval() });
    await expect(call(terminal, { command: 'true', timeout: 601 }, ctx)).rejects.toThrow(
      /at most 600/,
    );
    const out = await text(call(terminal, { command: 'sleep 30', timeout: 1 }, ctx));
    expect(out).toContain('[timed out after 1 s');
  });

  it('keeps the working directory between commands', async () => {
    const ctx = makeContext({ environment: env, approval: recordingApproval() });
    await call(terminal, { command: 'mkdir -p sub && cd sub' }, ctx);
    expect(await text(call(terminal, { command: 'pwd' }, ctx))).toBe(
      `${join(dir, 'sub')}\n[exit code 0]`,
    );
  });
});

describe('terminal background + process', () => {
  it('starts, lists, polls, feeds stdin, waits and reports exit', async () => {
    const ctx = makeContext({ environment: env, approval: recordingApproval() });
    const started = await call(
      terminal,
      { command: 'read line; echo "got $line"; exit 4', background: true },
      ctx,
    );
    const id = (started as { data: { id: string } }).data.id;
    expect(await text(call(processTool, { action: 'list' }, ctx))).toMatch(
      new RegExp(`${id} running`),
    );
    expect(
      await text(call(processTool, { action: 'submit', session_id: id, data: 'apple' }, ctx)),
    ).toContain('and Enter');
    const waited = await text(
      call(processTool, { action: 'wait', session_id: id, timeout: 20 }, ctx),
    );
    expect(waited).toMatch(/exited \(exit code 4\)/);
    expect(waited).toContain('got apple');
    expect(await text(call(processTool, { action: 'log', session_id: id }, ctx))).toContain(
      'got apple',
    );
  });

  it('kills a running process and reports a wait that times out', async () => {
    const ctx = makeContext({ environment: env, approval: recordingApproval() });
    const started = await call(terminal, { command: 'sleep 60', background: true }, ctx);
    const id = (started as { data: { id: string } }).data.id;
    expect(
      await text(call(processTool, { action: 'wait', session_id: id, timeout: 1 }, ctx)),
    ).toContain('still running after 1 s');
    expect(await text(call(processTool, { action: 'kill', session_id: id }, ctx))).toMatch(
      /killed/,
    );
  });

  it('text sent to a process passes the approval gate like a command', async () => {
    const approval = recordingApproval();
    const ctx = makeContext({ environment: env, approval });
    const started = await call(terminal, { command: 'cat', background: true }, ctx);
    const id = (started as { data: { id: string } }).data.id;
    await expect(
      call(processTool, { action: 'submit', session_id: id, data: 'forbidden thing' }, ctx),
    ).rejects.toThrow(/BLOCKED/);
    await call(processTool, { action: 'submit', session_id: id, data: 'allowed line' }, ctx);
    await call(processTool, { action: 'close', session_id: id }, ctx);
    const waited = await text(
      call(processTool, { action: 'wait', session_id: id, timeout: 20 }, ctx),
    );
    expect(waited).toContain('allowed line');
    expect(waited).not.toContain('forbidden');
    expect(approval.requests.map(([, r]) => r.toolName)).toEqual([
      'terminal',
      'process',
      'process',
    ]);
  });

  it('background commands pass the approval gate too', async () => {
    const ctx = makeContext({ environment: env, approval: recordingApproval() });
    await expect(call(terminal, { command: 'forbidden &', background: true }, ctx)).rejects.toThrow(
      /BLOCKED/,
    );
    expect(await text(call(processTool, { action: 'list' }, ctx))).toBe('No background processes.');
  });

  it('explains unknown ids and missing arguments', async () => {
    const ctx = makeContext({ environment: env });
    await expect(call(processTool, { action: 'poll' }, ctx)).rejects.toThrow(/needs session_id/);
    await expect(call(processTool, { action: 'poll', session_id: 'proc_99' }, ctx)).rejects.toThrow(
      /no background process/,
    );
    await expect(
      call(processTool, { action: 'write', session_id: 'proc_99' }, ctx),
    ).rejects.toThrow(/needs data/);
  });
});
