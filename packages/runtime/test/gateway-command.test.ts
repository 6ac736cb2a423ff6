/**
 * runGatewayCommand: config → build → start → serve until a signal → drain → exit code, with
 * the signals injected through an EventEmitter (the real process is never signalled) and a
 * real api_server in front of agents answered by a @hermes/testkit scripted model.
 */
import { EventEmitter } from 'node:events';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  faults,
  type ScriptBuilder,
  type ScriptedServer,
  script,
  startScriptedServer,
} from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { type ProcessEvents, runGatewayCommand } from '../src/index.ts';

const home = () => process.env.HERMES_HOME as string;
const API_KEY = 'cmd-test-key-0123456789abcdef01';

let model: ScriptedServer | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

/** Text written so far, and a promise for the first moment it matches. */
class Capture {
  text = '';
  readonly #waiters: { pattern: RegExp; resolve: (match: RegExpMatchArray) => void }[] = [];
  write = (chunk: string): boolean => {
    this.text += chunk;
    for (const waiter of [...this.#waiters]) {
      const match = this.text.match(waiter.pattern);
      if (match) {
        this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
        waiter.resolve(match);
      }
    }
    return true;
  };
  waitFor(pattern: RegExp): Promise<RegExpMatchArray> {
    const match = this.text.match(pattern);
    if (match) return Promise.resolve(match);
    return new Promise((resolve) => this.#waiters.push({ pattern, resolve }));
  }
}

async function configure(turns: ScriptBuilder, platforms: string): Promise<void> {
  model = await startScriptedServer(turns);
  writeFileSync(
    join(home(), 'config.yaml'),
    `model:\n  provider: openai\n  default: scripted-model\n  base_url: ${model.baseUrl('openai-chat')}\nplatforms:\n${platforms}\n`,
  );
}

const API_SERVER = '  api_server:\n    enabled: true\n    port: 0';

function start(env: Record<string, string> = {}, configPath?: string) {
  const stdout = new Capture();
  const stderr = new Capture();
  const signals = new EventEmitter();
  const exit = runGatewayCommand({
    hermesHome: home(),
    env: { OPENAI_API_KEY: 'sk-test-provider-key', API_SERVER_KEY: API_KEY, ...env },
    stdout,
    stderr,
    signals: signals as unknown as ProcessEvents,
    deps: { agents: { cwd: home() } },
    ...(configPath === undefined ? {} : { configPath }),
  });
  return { stdout, stderr, signals, exit };
}

async function listening(run: ReturnType<typeof start>): Promise<string> {
  const [, url] = await run.stdout.waitFor(/api_server listening on (http:\/\/127\.0\.0\.1:\d+)\n/);
  return url as string;
}

function chat(url: string, content: string, signal?: AbortSignal): Promise<Response> {
  return fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    ...(signal ? { signal } : {}),
    headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'hermes-agent', messages: [{ role: 'user', content }] }),
  });
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('runGatewayCommand refuses what it cannot run (exit 2)', () => {
  it('a broken config.yaml: the validation message', async () => {
    writeFileSync(join(home(), 'config.yaml'), 'gateway:\n  busy_policy: sometimes\n');
    const run = start();
    expect(await run.exit).toBe(2);
    expect(run.stderr.text).toContain('config.yaml is not valid');
    expect(run.stderr.text).toContain('gateway.busy_policy (line 2)');
    expect(run.stdout.text).toBe('');
  });

  it('no enabled adapter: says how to enable the API server', async () => {
    await configure(script().text('x'), '  api_server:\n    enabled: false');
    const run = start();
    expect(await run.exit).toBe(2);
    expect(run.stderr.text).toMatch(/^hermes-gateway: No platform adapter is enabled/);
    expect(run.stderr.text).toContain('API_SERVER_ENABLED=true');
    expect(run.stderr.text).toContain('platforms.api_server.enabled: true');
  });

  it('a short API key: one clear line, and the key is not in it', async () => {
    await configure(script().text('x'), API_SERVER);
    const run = start({ API_SERVER_KEY: 'tiny-key-1' });
    expect(await run.exit).toBe(2);
    expect(run.stderr.text).toBe(
      'hermes-gateway: API_SERVER_KEY is 10 characters long; the API server needs at least 16. ' +
        'Generate one with `openssl rand -hex 24`.\n',
    );
  });

  it('a --config path that does not exist', async () => {
    const stderr = new Capture();
    const run = runGatewayCommand({
      hermesHome: home(),
      configPath: '/elsewhere/config.yaml',
      env: {},
      stdout: new Capture(),
      stderr,
      signals: new EventEmitter() as unknown as ProcessEvents,
    });
    expect(await run).toBe(2);
    expect(stderr.text).toContain('--config /elsewhere/config.yaml: no such file');
  });
});

describe('runGatewayCommand serving', () => {
  it('prints the bound port, answers, and exits 0 after SIGTERM with the listeners removed', async () => {
    await configure(script().text('Served.'), API_SERVER);
    const run = start();
    const url = await listening(run);
    expect(run.signals.listenerCount('SIGTERM')).toBe(1);
    const answer = await chat(url, 'hi');
    expect(
      ((await answer.json()) as { choices: { message: { content: string } }[] }).choices[0],
    ).toMatchObject({ message: { content: 'Served.' } });
    run.signals.emit('SIGTERM', 'SIGTERM');
    expect(await run.exit).toBe(0);
    expect(run.stdout.text).toContain('SIGTERM received: draining');
    expect(run.stdout.text).toMatch(/gateway stopped\n$/);
    for (const event of ['SIGTERM', 'SIGINT', 'uncaughtException', 'unhandledRejection']) {
      expect(run.signals.listenerCount(event)).toBe(0);
    }
    await expect(fetch(`${url}/health`)).rejects.toThrow();
  });

  it('reads the file --config names instead of HERMES_HOME/config.yaml', async () => {
    await configure(script().text('From the other file.'), API_SERVER);
    const other = join(home(), 'elsewhere.yaml');
    renameSync(join(home(), 'config.yaml'), other);
    const run = start({}, other);
    const answer = await chat(await listening(run), 'hi');
    expect(await answer.text()).toContain('From the other file.');
    run.signals.emit('SIGTERM', 'SIGTERM');
    expect(await run.exit).toBe(0);
  });

  it('SIGINT drains too and exits 0', async () => {
    await configure(script().text('x'), API_SERVER);
    const run = start();
    await listening(run);
    run.signals.emit('SIGINT', 'SIGINT');
    expect(await run.exit).toBe(0);
  });

  it('a second signal during the drain exits at once with 128 + the signal', async () => {
    await configure(script().fault(faults.stall()), API_SERVER);
    const run = start();
    const url = await listening(run);
    const client = new AbortController();
    const pending = chat(url, 'take your time', client.signal).catch(() => undefined);
    await until(() => (model?.requests.length ?? 0) > 0);
    run.signals.emit('SIGTERM', 'SIGTERM');
    await run.stdout.waitFor(/draining/);
    run.signals.emit('SIGINT', 'SIGINT');
    expect(await run.exit).toBe(130);
    expect(run.stderr.text).toContain('SIGINT received again: exiting without waiting');
    // The client gives up, which stops its turn: the left-behind drain ends before this test's
    // home is removed.
    client.abort();
    await pending;
    await until(() =>
      readFileSync(join(home(), 'logs', 'gateway.log'), 'utf8').includes('gateway: stopped'),
    );
  });

  it('an uncaught error is logged, drained and exits 1', async () => {
    await configure(script().text('x'), API_SERVER);
    const run = start();
    await listening(run);
    run.signals.emit('uncaughtException', new Error('boom from a timer'));
    expect(await run.exit).toBe(1);
    expect(run.stderr.text).toContain('stopping after an error: boom from a timer');
    const log = readFileSync(join(home(), 'logs', 'gateway.log'), 'utf8');
    expect(log).toContain('gateway: stopping after an error');
    expect(log).toContain('boom from a timer');
    expect(log).not.toContain(API_KEY);
  });

  it('an adapter that cannot listen is reported and the run exits 1', async () => {
    const { createServer } = await import('node:net');
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      await configure(script().text('x'), `  api_server:\n    enabled: true\n    port: ${port}`);
      const run = start();
      expect(await run.exit).toBe(1);
      expect(run.stderr.text).toMatch(/api_server failed to start: .*EADDRINUSE/);
    } finally {
      blocker.close();
    }
  });
});
