import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BackgroundProcesses,
  type ExecuteResult,
  ExecutionEnvironment,
  LocalEnvironment,
} from '../src/index.js';
import { alive, BACKSTOP_MS, untilExists, waitUntil } from './support/processes.js';

let dir: string;
let environment: LocalEnvironment;
let processes: BackgroundProcesses;

afterEach(async () => {
  await processes?.dispose();
  await environment?.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

function setup(maxBufferChars?: number): void {
  dir = mkdtempSync(join(tmpdir(), 'hermes-bg-'));
  environment = new LocalEnvironment({ cwd: dir, loginShellEnv: false });
  processes = new BackgroundProcesses(
    environment,
    maxBufferChars === undefined ? {} : { maxBufferChars },
  );
}

describe('BackgroundProcesses on a local environment', () => {
  it('starts, polls new output, tails the log and reports the exit', async () => {
    setup();
    // "three" comes only once the test has polled, however slowly either side runs.
    const go = join(dir, 'go');
    const { id } = await processes.start(
      `echo one; echo two; ${untilExists(go)}; echo three; exit 7`,
    );
    expect(processes.list().map((p) => [p.id, p.status])).toEqual([[id, 'running']]);
    expect(await waitUntil(() => processes.log(id).includes('two\n'))).toBe(true);
    const first = processes.poll(id);
    expect(first.output).toBe('one\ntwo\n');
    writeFileSync(go, '');
    const done = await processes.wait(id, { timeoutMs: BACKSTOP_MS });
    expect([done.status, done.exitCode, done.timedOut]).toEqual(['exited', 7, false]);
    expect(processes.poll(id).output).toBe('three\n');
    expect(processes.poll(id).output).toBe('');
    expect(processes.log(id, { tail: 2 })).toBe('two\nthree\n');
    expect(first.pid).toBeGreaterThan(0);
  });

  it('writes to stdin and closes it', async () => {
    setup();
    const { id } = await processes.start('while read line; do echo "got:$line"; done; echo eof');
    await processes.write(id, 'alpha\n');
    await processes.write(id, 'beta\n');
    processes.close(id);
    const done = await processes.wait(id, { timeoutMs: BACKSTOP_MS });
    expect(done.exitCode).toBe(0);
    expect(processes.log(id)).toBe('got:alpha\ngot:beta\neof\n');
    await expect(processes.write(id, 'late')).rejects.toThrow(/not running or its stdin is closed/);
  });

  it('kills the whole process group, children included', async () => {
    setup();
    const { id } = await processes.start('sleep 30 & echo "child=$!"; wait');
    expect(await waitUntil(() => /child=\d+\n/.test(processes.log(id)))).toBe(true);
    const child = Number(/child=(\d+)/.exec(processes.log(id))?.[1]);
    expect(alive(child)).toBe(true);
    const killed = await processes.kill(id);
    expect(killed.status).toBe('killed');
    expect(await waitUntil(() => !alive(child))).toBe(true);
  });

  it('wait times out or aborts without touching the process', async () => {
    setup();
    const { id } = await processes.start('sleep 30');
    const waited = await processes.wait(id, { timeoutMs: 50 });
    expect([waited.status, waited.timedOut]).toEqual(['running', true]);
    const controller = new AbortController();
    const pending = processes.wait(id, { signal: controller.signal });
    controller.abort();
    expect((await pending).interrupted).toBe(true);
    expect(processes.poll(id).status).toBe('running');
  });

  it('keeps output in a bounded ring and says how much a poll missed', async () => {
    setup(1_000);
    const { id } = await processes.start("head -c 50000 /dev/zero | tr '\\000' x; echo; echo END");
    await processes.wait(id, { timeoutMs: BACKSTOP_MS });
    const polled = processes.poll(id);
    expect(polled.output.length).toBeLessThanOrEqual(1_000);
    expect(polled.output.endsWith('END\n')).toBe(true);
    expect(polled.dropped).toBe(polled.outputChars - polled.output.length);
  });

  it('names unknown ids and starts in the requested cwd with env', async () => {
    setup();
    expect(() => processes.poll('proc_99')).toThrow(/no background process "proc_99"/);
    const { id } = await processes.start('pwd; echo "$X"', { cwd: '/', env: { X: 'from-env' } });
    await processes.wait(id, { timeoutMs: BACKSTOP_MS });
    expect(processes.log(id)).toBe('/\nfrom-env\n');
  });

  it('works with a plain spawn function', async () => {
    setup();
    processes = new BackgroundProcesses((command) =>
      spawn('/bin/sh', ['-c', command], { detached: true, stdio: 'pipe' }),
    );
    const { id, pid } = await processes.start('echo spawned');
    expect(pid).toBeGreaterThan(0);
    expect((await processes.wait(id, { timeoutMs: BACKSTOP_MS })).exitCode).toBe(0);
    expect(processes.log(id)).toBe('spawned\n');
  });

  it('refuses an environment that cannot run background work, saying why', () => {
    setup();
    class ExecuteOnly extends ExecutionEnvironment {
      readonly name = 'execute-only';
      async execute(): Promise<ExecuteResult> {
        return { output: '', exitCode: 0, timedOut: false, interrupted: false, cwd: '/' };
      }
      async cleanup(): Promise<void> {}
    }
    expect(() => new BackgroundProcesses(new ExecuteOnly())).toThrow(
      /execute-only environment cannot run background processes/,
    );
  });
});
