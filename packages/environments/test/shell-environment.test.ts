/** The test backend's own promises, beyond the contract: it really kills the process group. */
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { type ExecuteActivity, isEnvironmentConnectionError } from '../src/index.js';
import { ShellEnvironment } from './support/shell-environment.js';

/** True while `pid` runs. A zombie (dead, not yet reaped by its new parent) counts as gone. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    // No /proc (not Linux): trust kill(0). With /proc, an unreadable status means it is gone.
    return !existsSync('/proc');
  }
}

async function waitUntil(condition: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return condition();
}

let environment: ShellEnvironment;
afterEach(async () => {
  await environment.cleanup();
});

describe('ShellEnvironment', () => {
  it('kills background children with the shell when the signal aborts', async () => {
    environment = new ShellEnvironment({ cwd: tmpdir(), activityIntervalMs: 0 });
    const controller = new AbortController();
    let childPid = 0;
    const pending = environment.execute('sleep 30 & echo "child=$!"; wait', {
      signal: controller.signal,
      onActivity: ({ message }) => {
        const match = /child=(\d+)/.exec(message);
        if (match?.[1]) childPid = Number(match[1]);
      },
    });
    expect(await waitUntil(() => childPid > 0, 5_000)).toBe(true);
    expect(alive(childPid)).toBe(true);
    controller.abort();
    const result = await pending;
    expect(result.interrupted).toBe(true);
    expect(await waitUntil(() => !alive(childPid), 1_000)).toBe(true);
  });

  it('throttles activity callbacks and survives one that throws', async () => {
    environment = new ShellEnvironment({ cwd: tmpdir(), activityIntervalMs: 60_000 });
    const seen: ExecuteActivity[] = [];
    const result = await environment.execute('echo one; sleep 0.1; echo two', {
      onActivity: (activity) => {
        seen.push(activity);
        throw new Error('observer bug');
      },
    });
    expect(result.exitCode).toBe(0);
    expect(result.output).toBe('one\ntwo\n');
    expect(seen).toHaveLength(1);
    expect(seen[0]?.message).toBe('one');
  });

  it('rejects with EnvironmentConnectionError once cleaned up', async () => {
    environment = new ShellEnvironment();
    await environment.cleanup();
    const error = await environment.execute('true').catch((e: unknown) => e);
    expect(isEnvironmentConnectionError(error)).toBe(true);
  });
});
