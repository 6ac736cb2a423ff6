/**
 * `hermes cron run <id>` and `hermes cron tick`, in-process, against a scripted model: the job
 * runs through the real cron service (scheduler, executor, agent, output files), or — with a
 * gateway running — is only marked due for it.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CronJob, RunRecord } from '@hermes/cron';
import {
  faults,
  type RecordedRequest,
  type ScriptedServer,
  script,
  startScriptedServer,
} from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import type { CommandContext } from '../src/command-context.ts';
import { run as runCron } from '../src/commands/cron.ts';
import { main } from '../src/index.ts';
import { capture } from './capture.ts';
import { configureScriptedModel, hermesHome } from './chat-harness.ts';

let server: ScriptedServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function hermes(...argv: string[]) {
  const c = capture();
  const code = await main(argv, c.io);
  return { code, stdout: c.stdout(), stderr: c.stderr() };
}

async function create(...args: string[]): Promise<string> {
  const result = await hermes('cron', 'create', ...args);
  expect(result).toMatchObject({ code: 0, stderr: '' });
  return /^Created cron job (\S+) /m.exec(result.stdout)?.[1] as string;
}

async function jobs(): Promise<CronJob[]> {
  return JSON.parse((await hermes('cron', 'list', '--json', '--all')).stdout) as CronJob[];
}

async function runs(id: string): Promise<RunRecord[]> {
  return JSON.parse((await hermes('cron', 'runs', id, '--json')).stdout) as RunRecord[];
}

/** Where the run line says the answer was saved (`… -> <path>`). */
function outputPath(stdout: string): string {
  const path = / -> (\S+)$/m.exec(stdout)?.[1];
  expect(path).toBeDefined();
  return path as string;
}

describe('hermes cron run <id> (no gateway)', () => {
  it('runs the job in the foreground, prints the answer and saves it', async () => {
    server = await startScriptedServer(script().text('Nothing new in the inbox.'));
    configureScriptedModel(server.url);
    const id = await create('every 2h', 'summarize my inbox', '--name', 'inbox');
    const result = await hermes('cron', 'run', id);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^${id} \\(inbox\\): ok in [\\d.]+ s -> `, 'm'));
    expect(result.stdout).toMatch(/\n\nNothing new in the inbox\.\n$/);
    const file = outputPath(result.stdout);
    expect(file.startsWith(join(hermesHome(), 'cron', 'output', id))).toBe(true);
    expect(readFileSync(file, 'utf8')).toContain('Nothing new in the inbox.');
    // The model saw the job's prompt, as a cron run.
    expect(JSON.stringify(server.requests[0]?.body)).toContain('summarize my inbox');
    const [run] = await runs(id);
    expect(run).toMatchObject({ jobId: id, status: 'ok', output: 'Nothing new in the inbox.' });
    const history = await hermes('cron', 'runs', id);
    expect(history.stdout.split('\n')[1]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d\s+ok\s+[\d.]+\s+\//);
    const [job] = await jobs();
    expect(job).toMatchObject({ lastStatus: 'ok', enabled: true });
  });

  it('a provider failure is an error, exit 1, with the message', async () => {
    server = await startScriptedServer(
      script().fault(faults.badRequest('model scripted-model is not allowed')),
    );
    configureScriptedModel(server.url);
    const id = await create('every 2h', 'ping', '--name', 'ping');
    const result = await hermes('cron', 'run', id);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      new RegExp(`^${id} \\(ping\\): error in [\\d.]+ s: .*not allowed`, 'm'),
    );
    expect((await runs(id))[0]?.status).toBe('error');
  });
});

describe('hermes cron run <id> interrupted', () => {
  it('aborts the run, records it as a failure and exits 1', async () => {
    server = await startScriptedServer(script().fault(faults.stall()));
    configureScriptedModel(server.url);
    const id = await create('every 2h', 'take your time', '--name', 'slow');
    const asked = requestSeen(server);
    const stopper = new AbortController();
    const out = capture();
    const ctx: CommandContext = {
      hermesHome: hermesHome(),
      env: process.env,
      stdout: out.io.stdout,
      stderr: out.io.stderr,
      signal: stopper.signal,
    };
    const done = runCron(['run', id], ctx);
    await asked;
    stopper.abort();
    expect(await done).toBe(1);
    expect(out.stderr()).toContain('hermes cron: interrupted; stopping the running job');
    expect(out.stderr()).not.toContain('warning');
    expect(out.stdout()).toMatch(new RegExp(`^${id} \\(slow\\): error in `, 'm'));
    const [run] = await runs(id);
    expect(run?.status).toBe('error');
  });
});

describe('hermes cron tick', () => {
  it('runs the due job once and leaves the future one', async () => {
    server = await startScriptedServer(script().text('Done.'));
    configureScriptedModel(server.url);
    const due = await create(
      new Date(Date.now() - 60_000).toISOString(),
      'the due one',
      '--name',
      'due',
    );
    const later = await create('every 2h', 'the later one', '--name', 'later');
    const result = await hermes('cron', 'tick');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^${due} \\(due\\): ok in [\\d.]+ s -> \\S+\\n$`));
    expect(server.requests).toHaveLength(1);
    expect(JSON.stringify(server.requests[0]?.body)).toContain('the due one');
    const byId = new Map((await jobs()).map((job) => [job.id, job]));
    // The one-shot ran and is done; the other never ran.
    expect(byId.get(due)).toMatchObject({ lastStatus: 'ok', enabled: false, nextRunAt: null });
    expect(byId.get(later)).toMatchObject({ lastStatus: null, enabled: true });
    expect(await runs(later)).toEqual([]);

    const again = await hermes('cron', 'tick');
    expect(again).toMatchObject({ code: 0, stdout: 'No cron jobs are due.\n' });
    expect(server.requests).toHaveLength(1);
  });

  it('exits 1 when a job failed', async () => {
    server = await startScriptedServer(script().fault(faults.badRequest('nope')));
    configureScriptedModel(server.url);
    const id = await create(new Date().toISOString(), 'fail please', '--name', 'failing');
    const result = await hermes('cron', 'tick');
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(new RegExp(`^${id} \\(failing\\): error in `, 'm'));
  });
});

describe('hermes cron run <id> with a gateway running', () => {
  it('only marks the job due for the gateway', async () => {
    server = await startScriptedServer(script().text('should not be asked'));
    configureScriptedModel(server.url);
    const id = await create('every 2h', 'for the gateway', '--name', 'gw');
    writeGatewayPid();
    const before = Date.now();
    const result = await hermes('cron', 'run', id);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain(`A gateway is running: cron job ${id} (gw) is due now`);
    const [job] = await jobs();
    expect(job?.nextRunAt).toBeGreaterThanOrEqual(before);
    expect(job?.nextRunAt).toBeLessThanOrEqual(Date.now());
    expect(job?.lastStatus).toBeNull();
    expect(server.requests).toHaveLength(0);
    expect(existsSync(join(hermesHome(), 'cron', 'output', id))).toBe(false);
  });
});

describe('hermes cron tick with a gateway running', () => {
  it('runs nothing: the gateway runs due jobs itself', async () => {
    server = await startScriptedServer(script().text('should not be asked'));
    configureScriptedModel(server.url);
    const id = await create(new Date().toISOString(), 'due now', '--name', 'due');
    writeGatewayPid();
    const result = await hermes('cron', 'tick');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain('A gateway is running: it runs due jobs itself');
    expect(server.requests).toHaveLength(0);
    expect(await runs(id)).toEqual([]);
  });
});

/** Resolves when `server` has received its first request. */
function requestSeen(server: ScriptedServer): Promise<void> {
  const requests = server.requests as RecordedRequest[];
  return new Promise((resolve) => {
    const push = requests.push.bind(requests);
    requests.push = (...items) => {
      const length = push(...items);
      resolve();
      return length;
    };
  });
}

/** Says a gateway runs in this home: its pid file names a live process (this test's). */
function writeGatewayPid(): void {
  writeFileSync(join(hermesHome(), 'gateway.pid'), `${process.pid}\n`);
}
