/** Local-only promises beyond the contract, checked with real pids. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type ExecuteActivity,
  isEnvironmentConnectionError,
  LocalEnvironment,
} from '../src/index.js';
import { alive, waitUntil } from './support/processes.js';

let dir: string;
let environment: LocalEnvironment;
afterEach(async () => {
  await environment.cleanup();
  rmSync(dir, { recursive: true, force: true });
});
function setup(options: ConstructorParameters<typeof LocalEnvironment>[0] = {}): void {
  dir = mkdtempSync(join(tmpdir(), 'hermes-local-'));
  environment = new LocalEnvironment({ cwd: dir, ...options });
}

/** Starts `command`, which prints `pids=<a> <b> …`, and resolves with those pids. */
async function startWithPids(command: string, signal: AbortSignal) {
  let text = '';
  const pending = environment.execute(command, {
    signal,
    onActivity: ({ message }) => {
      text += `${message}\n`;
    },
  });
  await waitUntil(() => /pids=[\d ]+/.test(text), 5_000);
  const pids = (/pids=([\d ]+)/.exec(text)?.[1] ?? '').trim().split(' ').map(Number);
  return { pending, pids };
}

describe('LocalEnvironment', () => {
  it('kills the shell and every child on abort, even ones ignoring SIGTERM', async () => {
    setup({ activityIntervalMs: 1 });
    const controller = new AbortController();
    const { pending, pids } = await startWithPids(
      "trap '' TERM; sleep 600 & a=$!; (trap '' TERM; sleep 600) & b=$!; echo pids=$$ $a $b; wait",
      controller.signal,
    );
    expect(pids).toHaveLength(3);
    expect(pids.every(alive)).toBe(true);
    controller.abort();
    const result = await pending;
    expect(result.interrupted).toBe(true);
    // Generous here; bench/ measures the 100 ms target.
    expect(await waitUntil(() => !pids.some(alive), 2_000)).toBe(true);
  });

  it('fires the activity callback at most once per interval', async () => {
    setup({ activityIntervalMs: 200 });
    const seen: ExecuteActivity[] = [];
    await environment.execute('for i in 1 2 3 4 5 6 7 8 9 10; do echo tick $i; sleep 0.1; done', {
      onActivity: (activity) => {
        seen.push(activity);
        throw new Error('an observer bug must not break the command');
      },
    });
    expect(seen.length).toBeGreaterThanOrEqual(1);
    expect(seen.length).toBeLessThanOrEqual(6);
    for (let i = 1; i < seen.length; i++) {
      expect((seen[i]?.elapsedMs ?? 0) - (seen[i - 1]?.elapsedMs ?? 0)).toBeGreaterThanOrEqual(195);
    }
    expect(seen[0]?.message).toMatch(/^tick \d+$/);
  });

  it('uses the login shell environment plus its own and per-call variables', async () => {
    setup({ env: { FROM_ENV: 'environment' } });
    const result = await environment.execute('echo "$FROM_ENV/$FROM_CALL/$HERMES_HOME"', {
      env: { FROM_CALL: 'call' },
    });
    expect(result.output).toBe(`environment/call/${process.env.HERMES_HOME}\n`);
    await expect(environment.execute('true', { env: { 'NOT VALID': 'x' } })).rejects.toThrow(
      /not a valid shell variable name/,
    );
  });

  it('keeps the previous cwd when a command names a missing one, and spills under HERMES_HOME', async () => {
    setup();
    const missing = await environment.execute('pwd', { cwd: join(dir, 'gone') });
    expect([missing.exitCode, missing.cwd]).toEqual([1, dir]);
    const long = await environment.execute('seq 1 100000', { maxOutputChars: 1_000 });
    expect(long.spillPath?.startsWith(join(process.env.HERMES_HOME ?? '', 'sandboxes'))).toBe(true);
  });

  it('rejects with EnvironmentConnectionError once cleaned up, and cleanup kills running commands', async () => {
    setup();
    const running = environment.execute('sleep 600');
    await new Promise((resolve) => setTimeout(resolve, 100));
    await environment.cleanup();
    expect((await running).exitCode).toBeNull();
    const error = await environment.execute('true').catch((e: unknown) => e);
    expect(isEnvironmentConnectionError(error)).toBe(true);
  });
});
