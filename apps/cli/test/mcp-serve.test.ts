/**
 * `hermes mcp serve` with the official MCP SDK client: in process over Streamable HTTP (the
 * command's own code, a real session store, a real agent against the testkit's scripted model),
 * and the built binary over stdio and HTTP. No test reaches past 127.0.0.1.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openSessionStore } from '@hermes/state';
import { faults, type ScriptedServer, script, startScriptedServer } from '@hermes/testkit';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { CommandContext } from '../src/command-context.ts';
import { runMcpServe } from '../src/commands/mcp-serve.ts';
import { BIN, configureScriptedModel, hermesHome, requireBuild, workDir } from './chat-harness.ts';
import { StreamText } from './stream-text.ts';

const KEY = 'test-key-0123456789abcdef';

let model: ScriptedServer | undefined;
const cleanups: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
  await model?.close();
  model = undefined;
});

/** Resolves once `condition` holds (checked every 20 ms); the 60 s limit is a backstop. */
async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition never held');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Text written to a sink, with a wait for a pattern that resolves on the write itself. */
class Sink {
  text = '';
  readonly #waiters = new Set<() => void>();
  write = (chunk: string): boolean => {
    this.text += chunk;
    for (const wake of this.#waiters) wake();
    return true;
  };
  /** The first match of `pattern`; rejects when `exited` settles first. */
  waitFor(pattern: RegExp, exited: Promise<unknown>): Promise<RegExpExecArray> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(this.text);
        if (!match) return;
        this.#waiters.delete(check);
        resolve(match);
      };
      this.#waiters.add(check);
      check();
      void exited.then((code) => reject(new Error(`exited ${String(code)} first:\n${this.text}`)));
    });
  }
}

function context(env: Record<string, string>, signal?: AbortSignal) {
  const stdout = new Sink();
  const stderr = new Sink();
  const ctx: CommandContext = {
    stdout,
    stderr,
    env: { ...process.env, ...env },
    hermesHome: hermesHome(),
    ...(signal ? { signal } : {}),
  };
  return { ctx, stdout, stderr };
}

/** `runMcpServe --http 0` in this process; resolves once it listens. */
async function serveInProcess(env: Record<string, string> = { MCP_SERVER_KEY: KEY }) {
  const controller = new AbortController();
  const { ctx, stderr } = context(env, controller.signal);
  const exited = runMcpServe(['--http', '0'], ctx);
  cleanups.push(async () => {
    controller.abort();
    await exited;
  });
  const [, url] = await stderr.waitFor(/listening on (http:\S+)/, exited);
  return { url: url as string, stderr, exited, stop: () => controller.abort() };
}

async function httpClient(url: string, key = KEY): Promise<Client> {
  const client = new Client({ name: 'mcp-serve-test', version: '0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  cleanups.push(() => client.close());
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function structured<T>(result: CallToolResult): T {
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent as T;
}

/** A session written straight to the store, as `hermes chat` on the CLI would leave it. */
async function seedCliSession(): Promise<string> {
  const store = openSessionStore({ hermesHome: hermesHome() });
  try {
    const session = await store.createSession({ source: 'cli', title: 'llama notes' });
    await store.appendMessages(session.id, [
      { role: 'user', content: 'what do alpacas eat?' },
      { role: 'assistant', content: 'Alpacas graze on grass and hay.' },
    ]);
    return session.id;
  } finally {
    await store.close();
  }
}

describe('hermes mcp serve (in process, Streamable HTTP)', () => {
  it('lists, reads and searches sessions, and runs a prompt against the scripted model', async () => {
    model = await startScriptedServer(
      script().text('The zebra-42 cluster is healthy.').text('Still healthy.'),
    );
    configureScriptedModel(model.url);
    const cliSession = await seedCliSession();
    const { url } = await serveInProcess();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = await httpClient(url);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(['sessions_list', 'session_read', 'sessions_search', 'agent_run']);

    const run = structured<{ answer: string; session_id: string; exit_reason: string }>(
      await call(client, 'agent_run', { prompt: 'how is the cluster?' }),
    );
    expect(run).toMatchObject({
      answer: 'The zebra-42 cluster is healthy.',
      exit_reason: 'completed',
    });
    const again = structured<{ answer: string; session_id: string }>(
      await call(client, 'agent_run', { prompt: 'and now?', session_id: run.session_id }),
    );
    expect(again).toEqual({
      answer: 'Still healthy.',
      session_id: run.session_id,
      exit_reason: 'completed',
    });
    // The second request carried the first turn: the session really was continued.
    expect(JSON.stringify(model.requests.at(-1)?.body)).toContain('zebra-42');

    const listed = structured<{
      sessions: { id: string; platform: string; message_count: number }[];
    }>(await call(client, 'sessions_list', {}));
    expect(listed.sessions.map((s) => [s.id, s.platform])).toEqual([
      [run.session_id, 'mcp'],
      [cliSession, 'cli'],
    ]);
    expect(listed.sessions[0]?.message_count).toBe(4);
    const onlyCli = structured<{ sessions: { id: string }[] }>(
      await call(client, 'sessions_list', { platform: 'cli' }),
    );
    expect(onlyCli.sessions.map((s) => s.id)).toEqual([cliSession]);

    const hits = structured<{ hits: { session_id: string; snippet: string }[] }>(
      await call(client, 'sessions_search', { query: 'alpacas' }),
    );
    expect(hits.hits.map((h) => h.session_id)).toEqual([cliSession, cliSession]);
    const zebra = structured<{ hits: { session_id: string }[] }>(
      await call(client, 'sessions_search', { query: 'zebra' }),
    );
    expect(zebra.hits[0]?.session_id).toBe(run.session_id);

    const page = structured<{ total: number; messages: { role: string; content: string }[] }>(
      await call(client, 'session_read', { session_id: run.session_id, offset: 1, limit: 2 }),
    );
    expect(page.total).toBe(4);
    expect(page.messages).toMatchObject([
      { role: 'assistant', content: 'The zebra-42 cluster is healthy.' },
      { role: 'user', content: 'and now?' },
    ]);
  });

  it('denies a command that needs approval, and refuses an unknown session', async () => {
    const dir = workDir();
    const keep = join(dir, 'keepme');
    mkdirSync(keep);
    model = await startScriptedServer(
      script()
        .toolCall('terminal', { command: `rm -r ${keep}` })
        .text('Could not delete it.'),
    );
    configureScriptedModel(model.url);
    const { url } = await serveInProcess();
    const client = await httpClient(url);
    const run = await call(client, 'agent_run', { prompt: 'delete keepme' });
    expect(structured<{ answer: string }>(run).answer).toBe('Could not delete it.');
    expect(existsSync(keep)).toBe(true);
    // The model was told the command was refused.
    expect(JSON.stringify(model.requests.at(-1)?.body)).toContain(
      'denied by approvals.single_query_mode',
    );
    const unknown = await call(client, 'agent_run', { prompt: 'x', session_id: 'no-such' });
    expect(unknown.isError).toBe(true);
    expect(JSON.stringify(unknown.content)).toContain("no session 'no-such'");
  });

  it("runs that command when the user's config allows it (approvals.single_query_mode)", async () => {
    const dir = workDir();
    const doomed = join(dir, 'doomed');
    mkdirSync(doomed);
    model = await startScriptedServer(
      script()
        .toolCall('terminal', { command: `rm -r ${doomed}` })
        .text('Deleted.'),
    );
    configureScriptedModel(model.url, 'approvals:\n  single_query_mode: approve\n');
    const client = await httpClient((await serveInProcess()).url);
    const run = await call(client, 'agent_run', { prompt: 'delete doomed' });
    expect(structured<{ answer: string }>(run).answer).toBe('Deleted.');
    expect(existsSync(doomed)).toBe(false);
  });

  it('stopping the server interrupts a running agent_run before it exits', async () => {
    model = await startScriptedServer(script().text('never sent').fault(faults.stall()));
    configureScriptedModel(model.url);
    const served = await serveInProcess();
    const client = await httpClient(served.url);
    const pending = call(client, 'agent_run', { prompt: 'a slow question about quokkas' });
    pending.catch(() => {});
    await until(() => (model?.requests.length ?? 0) > 0);
    served.stop();
    expect(await served.exited).toBe(0);
    expect(served.stderr.text).toMatch(/agent_run session \S+: interrupted/);
  });

  it('answers 401 to a wrong key and stops on its signal with exit 0', async () => {
    configureScriptedModel('http://127.0.0.1:9');
    const served = await serveInProcess();
    const wrong = await fetch(served.url, {
      method: 'POST',
      headers: {
        authorization: 'Bearer wrong-key-wrong-key-wrong',
        'content-type': 'application/json',
      },
      body: '{}',
    });
    expect(wrong.status).toBe(401);
    await expect(httpClient(served.url, `${KEY}-not`)).rejects.toMatchObject({ code: 401 });
    served.stop();
    expect(await served.exited).toBe(0);
  });

  it('refuses to serve HTTP without a key of 16 characters; usage errors exit 2', async () => {
    configureScriptedModel('http://127.0.0.1:9');
    const cases: [string[], Record<string, string>, RegExp][] = [
      [['--http', '0'], {}, /a bearer key is required: set MCP_SERVER_KEY or pass --key/],
      [['--http', '0', '--key', 'short'], {}, /at least 16 characters \(got 5\)/],
      [['--http', '0'], { MCP_SERVER_KEY: 'fifteen-chars-x' }, /at least 16 characters/],
      [['--key', KEY], {}, /--key goes with --http/],
      [['--http', 'x'], {}, /'--http' needs a whole number/],
      [['--http', '70000'], {}, /out of range/],
      [['extra'], {}, /unexpected argument 'extra'/],
    ];
    for (const [args, env, message] of cases) {
      const { ctx, stderr } = context({ MCP_SERVER_KEY: '', ...env });
      expect(await runMcpServe(args, ctx), args.join(' ')).toBe(2);
      expect(stderr.text).toMatch(message);
    }
    const { ctx, stdout } = context({});
    expect(await runMcpServe(['--help'], ctx)).toBe(0);
    expect(stdout.text).toContain('hermes mcp serve [--http <port>]');
  });
});

/** `hermes mcp serve …args` as a child process with this test's HERMES_HOME. */
function spawnServe(args: string[], env: Record<string, string>, cwd: string): ChildProcess {
  requireBuild();
  const child = spawn(process.execPath, [BIN, 'mcp', 'serve', ...args], {
    cwd,
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cleanups.push(async () => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  return child;
}

describe('hermes mcp serve (the built binary)', () => {
  it('serves stdio to the SDK client: a prompt, then its session found by search', async () => {
    requireBuild();
    model = await startScriptedServer(script().text('Penguins live in the south.'));
    configureScriptedModel(model.url);
    const stderr: string[] = [];
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', 'serve'],
      cwd: workDir(),
      env: { ...(process.env as Record<string, string>), NO_COLOR: '1' },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
    const client = new Client({ name: 'mcp-serve-test', version: '0' });
    await client.connect(transport);
    cleanups.push(() => client.close());
    expect(client.getServerVersion()?.name).toBe('hermes');
    expect((await client.listTools()).tools).toHaveLength(4);
    const run = structured<{ answer: string; session_id: string }>(
      await call(client, 'agent_run', { prompt: 'where do penguins live?' }),
    );
    expect(run.answer).toBe('Penguins live in the south.');
    const hits = structured<{ hits: { session_id: string }[] }>(
      await call(client, 'sessions_search', { query: 'penguins' }),
    );
    expect(hits.hits.map((h) => h.session_id)).toContain(run.session_id);
    await client.close();
    expect(stderr.join('')).toContain('hermes mcp serve: serving on stdin/stdout');
    expect(stderr.join('')).toContain(`agent_run session ${run.session_id}: completed`);
  });

  it('serves Streamable HTTP with MCP_SERVER_KEY; 401 for a wrong key; SIGTERM exits 0', async () => {
    model = await startScriptedServer(script().text('Forty-two.'));
    configureScriptedModel(model.url);
    const child = spawnServe(['--http', '0'], { MCP_SERVER_KEY: KEY }, workDir());
    const err = new StreamText(child.stderr as NodeJS.ReadableStream);
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    await err.waitFor('listening on http://127.0.0.1:');
    const url = /listening on (http:\S+)/.exec(err.text)?.[1] ?? '';
    await expect(httpClient(url, 'x'.repeat(20))).rejects.toMatchObject({ code: 401 });
    const client = await httpClient(url);
    const run = structured<{ answer: string }>(
      await call(client, 'agent_run', { prompt: 'the answer?' }),
    );
    expect(run.answer).toBe('Forty-two.');
    await client.close();
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
