/**
 * The `web_search` backends against local fakes of their HTTP APIs on 127.0.0.1: the request
 * each sends (path, query, headers, body), how its answer becomes results, and how failures read
 * (backend and status named, the key never shown).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createWebSearchTool, type WebSearchBackend } from '../src/core/web-search.js';
import { ToolRegistry } from '../src/registry/tool-registry.js';
import { createWebSearchBackend } from '../src/web-search/factory.js';
import { makeContext } from './core/context.js';

const KEY = 'sk-secret-search-key-123';

interface Seen {
  readonly method: string;
  readonly url: URL;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

type Reply = (res: ServerResponse, seen: Seen) => void;

let server: Server;
let base = '';
let reply: Reply;
const seen: Seen[] = [];
let onRequest: ((seen: Seen) => void) | undefined;

const json =
  (status: number, body: unknown): Reply =>
  (res) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      const entry = {
        method: req.method ?? '',
        url: new URL(req.url ?? '/', base),
        headers: req.headers,
        body,
      };
      seen.push(entry);
      reply(res, entry);
      onRequest?.(entry);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  seen.length = 0;
  onRequest = undefined;
});

function search(backend: WebSearchBackend, query: string, limit = 5, signal?: AbortSignal) {
  return backend.search(query, { limit, signal: signal ?? new AbortController().signal });
}

/** The error `promise` rejects with (fails the test when it resolves). */
async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

/** Resolves with the next request the fake receives. */
function nextRequest(): Promise<Seen> {
  return new Promise((resolve) => {
    onRequest = resolve;
  });
}

describe('searxng', () => {
  it('GETs <url>/search?q=…&format=json and maps results[].title/url/content', async () => {
    reply = json(200, {
      results: [
        { title: 'One', url: 'https://one.example', content: 'first' },
        { title: 'Two', url: 'https://two.example', content: null },
        { title: 'Three', url: 'https://three.example', content: 'third' },
      ],
    });
    const backend = createWebSearchBackend({ backend: 'searxng', url: `${base}/searx` });
    const results = await search(backend, 'hermes agent', 2);
    expect(results).toEqual([
      { title: 'One', url: 'https://one.example', snippet: 'first' },
      { title: 'Two', url: 'https://two.example', snippet: '' },
    ]);
    expect(seen[0]?.method).toBe('GET');
    expect(seen[0]?.url.pathname).toBe('/searx/search');
    expect(seen[0]?.url.searchParams.get('q')).toBe('hermes agent');
    expect(seen[0]?.url.searchParams.get('format')).toBe('json');
  });

  it('reports an HTTP error with the backend and the status', async () => {
    reply = json(403, { error: 'json format disabled' });
    const backend = createWebSearchBackend({ backend: 'searxng', url: base });
    await expect(search(backend, 'q')).rejects.toThrow('searxng search failed: HTTP 403');
  });

  it('rejects an answer of the wrong shape', async () => {
    reply = json(200, { results: [{ title: 'no url' }] });
    const backend = createWebSearchBackend({ backend: 'searxng', url: base });
    await expect(search(backend, 'q')).rejects.toThrow(
      /searxng search answered in an unexpected shape/,
    );
  });
});

describe('brave', () => {
  it('sends the key in X-Subscription-Token, count=N, and maps web.results[].description', async () => {
    reply = json(200, {
      web: { results: [{ title: 'B', url: 'https://b.example', description: 'brave hit' }] },
    });
    const backend = createWebSearchBackend({ backend: 'brave', apiKey: KEY, baseUrl: base });
    const results = await search(backend, 'typescript', 7);
    expect(results).toEqual([{ title: 'B', url: 'https://b.example', snippet: 'brave hit' }]);
    expect(seen[0]?.url.pathname).toBe('/res/v1/web/search');
    expect(seen[0]?.url.searchParams.get('q')).toBe('typescript');
    expect(seen[0]?.url.searchParams.get('count')).toBe('7');
    expect(seen[0]?.headers['x-subscription-token']).toBe(KEY);
  });

  it('treats a body without `web` as no results', async () => {
    reply = json(200, { query: { original: 'nothing' } });
    const backend = createWebSearchBackend({ backend: 'brave', apiKey: KEY, baseUrl: base });
    expect(await search(backend, 'nothing')).toEqual([]);
  });

  it('names brave and 401 on a bad key, and never shows the key', async () => {
    reply = json(401, { message: `invalid token ${KEY}` });
    const backend = createWebSearchBackend({ backend: 'brave', apiKey: KEY, baseUrl: base });
    const error = await failure(search(backend, 'q'));
    expect(error.message).toBe('brave search failed: HTTP 401 (check the API key).');
    expect(error.message).not.toContain(KEY);
  });
});

describe('tavily', () => {
  it('POSTs {query, max_results} with a Bearer key and maps results[].content', async () => {
    reply = json(200, {
      results: [
        { title: 'T1', url: 'https://t1.example', content: 'tavily one', score: 0.9 },
        { title: 'T2', url: 'https://t2.example', content: 'tavily two', score: 0.8 },
      ],
    });
    const backend = createWebSearchBackend({ backend: 'tavily', apiKey: KEY, baseUrl: `${base}/` });
    const results = await search(backend, 'node streams', 2);
    expect(results.map((r) => r.snippet)).toEqual(['tavily one', 'tavily two']);
    expect(seen[0]?.method).toBe('POST');
    expect(seen[0]?.url.pathname).toBe('/search');
    expect(seen[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(JSON.parse(seen[0]?.body ?? '')).toEqual({ query: 'node streams', max_results: 2 });
  });

  it('names tavily and the status on a server error', async () => {
    reply = json(500, { detail: 'boom' });
    const backend = createWebSearchBackend({ backend: 'tavily', apiKey: KEY, baseUrl: base });
    await expect(search(backend, 'q')).rejects.toThrow('tavily search failed: HTTP 500.');
  });
});

describe('timeouts, interrupts and unreachable servers', () => {
  const silent: Reply = () => {
    // Never answers: only the timeout or the abort can end the request.
  };

  it('gives up after the configured timeout', async () => {
    reply = silent;
    const backend = createWebSearchBackend({ backend: 'searxng', url: base, timeoutMs: 100 });
    await expect(search(backend, 'slow')).rejects.toThrow('searxng search timed out after 0.1 s.');
  });

  it('stops when the call is aborted', async () => {
    reply = silent;
    const backend = createWebSearchBackend({ backend: 'tavily', apiKey: KEY, baseUrl: base });
    const controller = new AbortController();
    const arrived = nextRequest();
    const pending = search(backend, 'q', 5, controller.signal);
    await arrived;
    controller.abort();
    await expect(pending).rejects.toThrow('tavily search was interrupted.');
  });

  it('says the server could not be reached without showing the query string', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const backend = createWebSearchBackend({ backend: 'searxng', url: `http://127.0.0.1:${port}` });
    const error = await failure(search(backend, 'private words'));
    expect(error.message).toMatch(
      /^searxng search could not reach http:\/\/127\.0\.0\.1:\d+\/search/,
    );
    expect(error.message).not.toContain('private');
  });
});

describe('settings', () => {
  it('refuses a brave backend without a key, naming the field and not a value', () => {
    expect(() => createWebSearchBackend({ backend: 'brave', apiKey: '' })).toThrow(
      'web search settings: apiKey: brave needs an API key',
    );
  });

  it('refuses a searxng URL that is not http(s)', () => {
    expect(() => createWebSearchBackend({ backend: 'searxng', url: 'ftp://x' })).toThrow(
      /web search settings: url:/,
    );
  });
});

describe('web_search over a backend, through the registry', () => {
  it('returns the results as JSON and a failure as a [TOOL_ERROR] without the key', async () => {
    const registry = new ToolRegistry();
    const backend = createWebSearchBackend({ backend: 'brave', apiKey: KEY, baseUrl: base });
    registry.register(createWebSearchTool(backend));
    reply = json(200, {
      web: { results: [{ title: 'R', url: 'https://r.example', description: 'd' }] },
    });
    const ok = await registry.dispatch('web_search', { query: 'x', limit: 3 }, makeContext());
    expect(ok.status).toBe('ok');
    expect(JSON.parse(ok.content)).toEqual({
      backend: 'brave',
      query: 'x',
      results: [{ title: 'R', url: 'https://r.example', description: 'd' }],
    });
    reply = json(429, {});
    const failed = await registry.dispatch('web_search', { query: 'x' }, makeContext());
    expect(failed.status).toBe('error');
    expect(failed.content).toContain('brave search failed: HTTP 429');
    expect(failed.content).not.toContain(KEY);
  });
});
