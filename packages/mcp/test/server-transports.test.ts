/**
 * Serving the Hermes MCP server: Streamable HTTP with the official SDK client (bearer key, one
 * session per client, close) and stdio over in-process streams (a JSON-RPC exchange, and the end
 * of stdin stopping the server).
 */
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createHermesMcpServer,
  type HermesMcpServerDeps,
  type HttpServeHandle,
  serveHttp,
  serveStdio,
} from '../src/server/index.ts';

const KEY = 'k'.repeat(24);

/** Host functions with one session; agent_run echoes the prompt. */
const deps: HermesMcpServerDeps = {
  listSessions: async () => [
    { id: 's1', title: 't', platform: 'cli', startedAt: 0, endedAt: null, messageCount: 1 },
  ],
  readSession: async () => [],
  searchSessions: async () => [],
  runAgent: async (prompt, sessionId) => ({
    answer: `echo: ${prompt}`,
    sessionId: sessionId ?? 'new',
    exitReason: 'completed',
  }),
};

let handle: HttpServeHandle | undefined;
const clients: Client[] = [];

afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((c) => c.close()));
  await handle?.close();
  handle = undefined;
});

async function httpClient(url: string, key: string): Promise<Client> {
  const client = new Client({ name: 'test', version: '0' });
  clients.push(client);
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return client;
}

describe('serveHttp', () => {
  it('refuses a missing or short key', async () => {
    const factory = () => createHermesMcpServer(deps);
    await expect(serveHttp(factory, { port: 0, key: '' })).rejects.toThrow(/key is required/);
    await expect(serveHttp(factory, { port: 0, key: 'short-key-15chr' })).rejects.toThrow(
      /at least 16 characters \(got 15\)/,
    );
  });

  it('serves the tools on 127.0.0.1 to a client with the key, one session per client', async () => {
    let built = 0;
    handle = await serveHttp(
      () => {
        built += 1;
        return createHermesMcpServer(deps);
      },
      { port: 0, key: KEY },
    );
    expect(handle.url).toBe(`http://127.0.0.1:${handle.port}/mcp`);
    const first = await httpClient(handle.url, KEY);
    const second = await httpClient(handle.url, KEY);
    expect((await first.listTools()).tools.map((t) => t.name)).toContain('agent_run');
    const result = await second.callTool({ name: 'agent_run', arguments: { prompt: 'hi' } });
    expect(result.structuredContent).toEqual({
      answer: 'echo: hi',
      session_id: 'new',
      exit_reason: 'completed',
    });
    expect(built).toBe(2);
  });

  it('answers 401 to a wrong or missing key and 404 off the endpoint path', async () => {
    handle = await serveHttp(() => createHermesMcpServer(deps), { port: 0, key: KEY });
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'x', version: '0' },
      },
    };
    const post = (headers: Record<string, string>, url = handle?.url ?? '') =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: JSON.stringify(init),
      });
    const wrong = await post({ authorization: `Bearer ${KEY}x` });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await post({})).status).toBe(401);
    expect((await post({ authorization: KEY })).status).toBe(401);
    const elsewhere = await post(
      { authorization: `Bearer ${KEY}` },
      handle.url.replace('/mcp', '/other'),
    );
    expect(elsewhere.status).toBe(404);
    const right = await post({ authorization: `Bearer ${KEY}` });
    expect(right.status).toBe(200);
    expect(right.headers.get('mcp-session-id')).toMatch(/^[0-9a-f-]{36}$/);
    await right.body?.cancel();
    await expect(httpClient(handle.url, 'z'.repeat(24))).rejects.toMatchObject({ code: 401 });
  });

  it('rejects a request with an unknown session or none before initialize', async () => {
    handle = await serveHttp(() => createHermesMcpServer(deps), { port: 0, key: KEY });
    const headers = {
      authorization: `Bearer ${KEY}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const noSession = await fetch(handle.url, { method: 'POST', headers, body: list });
    expect(noSession.status).toBe(400);
    const unknown = await fetch(handle.url, {
      method: 'POST',
      headers: { ...headers, 'mcp-session-id': 'nope' },
      body: list,
    });
    expect(unknown.status).toBe(404);
  });

  it('close() ends open sessions and stops listening', async () => {
    handle = await serveHttp(() => createHermesMcpServer(deps), { port: 0, key: KEY });
    const client = await httpClient(handle.url, KEY);
    await client.listTools();
    const { url } = handle;
    await handle.close();
    await handle.closed;
    handle = undefined;
    await expect(fetch(url, { method: 'POST' })).rejects.toThrow();
  });
});

describe('serveStdio', () => {
  it('answers JSON-RPC lines on stdout and stops when stdin ends', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const served = await serveStdio(createHermesMcpServer(deps), { stdin, stdout });
    const lines: unknown[] = [];
    const twoLines = new Promise<void>((resolve) => {
      let buffer = '';
      stdout.setEncoding('utf8').on('data', (chunk: string) => {
        buffer += chunk;
        const parts = buffer.split('\n');
        buffer = parts.pop() ?? '';
        for (const part of parts) lines.push(JSON.parse(part));
        if (lines.length >= 2) resolve();
      });
    });
    const send = (message: object) => stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'x', version: '0' },
      },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'sessions_list', arguments: {} },
    });
    await twoLines;
    expect(lines[0]).toMatchObject({ id: 1, result: { serverInfo: { name: 'hermes' } } });
    expect(lines[1]).toMatchObject({
      id: 2,
      result: { structuredContent: { sessions: [{ id: 's1' }] } },
    });
    stdin.end();
    await served.closed;
  });
});
