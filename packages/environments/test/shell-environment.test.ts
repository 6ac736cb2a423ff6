/** The test backend's own promises, beyond the contract: it really kills the process group. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ExecuteActivity, isEnvironmentConnectionError } from '../src/index.js';
import { alive, untilExists, waitUntil } from './support/processes.js';
import { ShellEnvironment } from './support/shell-environment.js';

let environment: ShellEnvironment;
let dir: string;
afterEach(async () => {
  await environment.cleanup();
  rmSync(dir, { recursive: true, force: true });
});
function setup(activityIntervalMs?: number): void {
  dir = mkdtempSync(join(tmpdir(), 'hermes-shell-'));
  environment = new ShellEnvironment({
    cwd: dir,
    ...(activityIntervalMs === undefined ? {} : { activityIntervalMs }),
  });
}

describe('ShellEnvironment', () => {
  it('kills background children with the shell when the signal aborts', async () => {
    setup(0);
    const controller = new AbortController();
    let childPid = 0;
    const pending = environment.execute('sleep 30 & echo "child=$!"; wait', {
      signal: controller.signal,
      onActivity: ({ message }) => {
        const match = /child=(\d+)/.exec(message);
        if (match?.[1]) childPid = Number(match[1]);
      },
    });
    expect(await waitUntil(() => childPid > 0)).toBe(true);
    expect(alive(childPid)).toBe(true);
    controller.abort();
    const result = await pending;
    expect(result.interrupted).toBe(true);
    expect(await waitUntil(() => !alive(childPid))).toBe(true);
  });

  it('throttles activity callbacks and survives one that throws', async () => {
    setup(60_000);
    const seen: ExecuteActivity[] = [];
    // "two" is printed only after the first callback, so the two lines never share a chunk.
    const go = join(dir, 'go');
    const result = await environment.execute(`echo one; ${untilExists(go)}; echo two`, {
      onActivity: (activity) => {
        seen.push(activity);
        writeFileSync(go, '');
        throw new Error('observer bug');
      },
    });
    expect(result.exitCode).toBe(0);
    expect(result.output).toBe('one\ntwo\n');
    expect(seen).toHaveLength(1);
    expect(seen[0]?.message).toBe('one');
  });

  it('rejects with EnvironmentConnectionError once cleaned up', async () => {
    setup();
    await environment.cleanup();
    const error = await environment.execute('true').catch((e: unknown) => e);
    expect(isEnvironmentConnectionError(error)).toBe(true);
  });
});
