import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CommandApprover } from '@hermes/approval';
import { LocalEnvironment } from '@hermes/environments';
import type { AgentEvent } from '@hermes/protocol';
import { waitFor } from '@hermes/protocol/testing';
import { script } from '@hermes/testkit';
import { coreTools, ToolRegistry } from '@hermes/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { RegistryToolbox } from '../src/index.js';
import { type Harness, startHarness } from './support/harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) Z/.test(stat); // a zombie has exited; it only waits to be reaped
  } catch {
    return false;
  }
}

async function terminalHarness(command: string, answer: string): Promise<Harness> {
  const home = process.env.HERMES_HOME ?? '';
  const registry = new ToolRegistry();
  for (const spec of coreTools()) registry.register(spec);
  return startHarness(script().toolCall('terminal', { command }).next().text(answer), {
    toolbox: new RegistryToolbox(registry),
    environment: new LocalEnvironment({ cwd: home, loginShellEnv: false }),
    approval: new CommandApprover({}, { hermesHome: home }),
    approvalSurface: 'single_query',
  });
}

describe('terminal through the loop', () => {
  it('interrupt during sleep 30 ends the turn, kills the process group and persists a cancelled result', async () => {
    const pidFile = join(process.env.HERMES_HOME ?? '', 'pids');
    harness = await terminalHarness(
      `echo $$ > ${pidFile}.tmp; sleep 30 & echo $! >> ${pidFile}.tmp; mv ${pidFile}.tmp ${pidFile}; wait`,
      'never',
    );
    const h = harness;
    const events: AgentEvent[] = [];
    h.agent.on('event', (e) => events.push(e));
    // Interrupt once both pids are written (the command runs), however long starting took. How
    // fast the turn then returns is measured by bench/interrupt.mjs, not asserted here; a turn
    // that waited for sleep 30 would still fail, at the test timeout.
    h.agent.on('tool_call_start', () => {
      void waitFor(() => existsSync(pidFile), 15_000).then(() => h.agent.interrupt());
    });
    const result = await h.agent.runConversation('sleep please');
    expect(result.exitReason).toBe('interrupted_by_user');
    const pids = readFileSync(pidFile, 'utf8').trim().split('\n').map(Number);
    expect(pids).toHaveLength(2);
    expect(await waitFor(() => !pids.some(alive), 15_000)).toBe(true);
    const rows = await h.store.getMessages(result.sessionId);
    const tool = rows.at(-1)?.message;
    expect(tool?.role).toBe('tool');
    expect(String(tool?.content)).toContain('Cancelled');
    const end = events.find((e) => e.type === 'tool_call_end');
    expect(end).toMatchObject({ outcome: 'cancelled', name: 'terminal' });
  });

  it('a hardline command is refused and never runs', async () => {
    harness = await terminalHarness('rm -rf /', 'refused');
    const result = await harness.agent.runConversation('wipe it');
    expect(result.finalResponse).toBe('refused');
    const body = harness.server.requests[1]?.body as {
      messages: { role: string; content: string }[];
    };
    const tool = body.messages.find((m) => m.role === 'tool');
    expect(tool?.content.toLowerCase()).toMatch(/block|refus|not allowed|denied/);
  });
});
