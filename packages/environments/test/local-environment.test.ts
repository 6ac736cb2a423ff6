/** Local-only promises beyond the contract, checked with real pids. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { within } from '@hermes/protocol/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type ExecuteActivity,
  isEnvironmentConnectionError,
  LocalEnvironment,
} from '../src/index.js';
import { alive, BACKSTOP_MS, deferred, untilExists, waitUntil } from './support/processes.js';

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

/** Starts `command`, which prints `pids=<a> <b> …`, and resolves once those pids are printed. */
async function startWithPids(command: string, signal: AbortSignal) {
  const printed = deferred<number[]>();
  const pending = environment.execute(command, {
    signal,
    onActivity: ({ message }) => {
      const match = /pids=([\d ]+)/.exec(message);
      if (match?.[1]) printed.resolve(match[1].trim().split(' ').map(Number));
    },
  });
  const pids = await within(printed.promise, BACKSTOP_MS, 'the command printing its pids');
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
    // Only a backstop: bench/ measures the 100 ms target.
    expect(await waitUntil(() => !pids.some(alive))).toBe(true);
  });

  it('fires the activity callback at most once per interval, with the latest line', async () => {
    setup({ activityIntervalMs: 200 });
    const seen: ExecuteActivity[] = [];
    // The command moves on only when the test has seen a line, so no timing decides what it sees.
    const [go1, go2] = [join(dir, 'go1'), join(dir, 'go2')];
    const command = `echo tick 1; ${untilExists(go1)}; echo tick 2; echo tick 3; ${untilExists(go2)}; echo done`;
    const result = await environment.execute(command, {
      timeoutMs: BACKSTOP_MS,
      onActivity: (activity) => {
        seen.push(activity);
        if (activity.message === 'tick 1') writeFileSync(go1, '');
        if (activity.message === 'tick 3') writeFileSync(go2, '');
        throw new Error('an observer bug must not break the command');
      },
    });
    expect([result.exitCode, result.output]).toEqual([0, 'tick 1\ntick 2\ntick 3\ndone\n']);
    const messages = seen.map((activity) => activity.message);
    expect(messages).toContain('tick 1');
    expect(messages).toContain('tick 3');
    for (let i = 1; i < seen.length; i++) {
      expect((seen[i]?.elapsedMs ?? 0) - (seen[i - 1]?.elapsedMs ?? 0)).toBeGreaterThanOrEqual(200);
    }
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
    setup({ activityIntervalMs: 1 });
    const started = deferred<void>();
    const running = environment.execute('echo started; sleep 600', {
      onActivity: ({ message }) => {
        if (message === 'started') started.resolve();
      },
    });
    await within(started.promise, BACKSTOP_MS, 'sleep 600 starting');
    await environment.cleanup();
    expect((await running).exitCode).toBeNull();
    const error = await environment.execute('true').catch((e: unknown) => e);
    expect(isEnvironmentConnectionError(error)).toBe(true);
  });
});
