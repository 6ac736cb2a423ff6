/**
 * Serving MCP over Streamable HTTP on one path (`/mcp`) behind a bearer key. Each client session
 * (started by an `initialize` request) gets its own transport and its own server from the
 * factory, since an SDK server serves one connection; later requests find theirs by the
 * `mcp-session-id` header, and a DELETE or `close()` ends them.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { bearerChecker, serverKeyProblem } from './bearer-key.js';
import type { ServeHandle } from './serve-stdio.js';

/** The path the MCP endpoint answers on. */
export const MCP_HTTP_PATH = '/mcp';

/** Largest request body read (the SDK's own limit for one message). */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** Options of {@link serveHttp}. */
export interface ServeHttpOptions {
  /** TCP port; 0 picks a free one (read it from the handle). */
  readonly port: number;
  /** Interface to bind. Default `127.0.0.1`: other machines cannot reach it. */
  readonly host?: string;
  /** The bearer key every request must carry; at least 16 characters. */
  readonly key: string;
  readonly logger?: { warn(message: string): void };
}

/** A running HTTP server. */
export interface HttpServeHandle extends ServeHandle {
  /** The endpoint, e.g. `http://127.0.0.1:8765/mcp`. */
  readonly url: string;
  readonly port: number;
}

/** Writes a JSON-RPC error response with no id. */
function rpcError(res: ServerResponse, status: number, code: number, message: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/** The request body parsed as JSON; `undefined` when it is not JSON or too large. */
async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Serves servers built by `createServer` over Streamable HTTP at `http://host:port/mcp`.
 * Requests without `Authorization: Bearer <key>` get 401 before anything else is read.
 *
 * @throws Error when the key is missing or shorter than 16 characters, or the port cannot be bound.
 */
export async function serveHttp(
  serverFactory: () => McpServer,
  options: ServeHttpOptions,
): Promise<HttpServeHandle> {
  const problem = serverKeyProblem(options.key);
  if (problem) throw new Error(`mcp serve --http: ${problem}`);
  const authorized = bearerChecker(options.key);
  const sessions = new Map<string, StreamableHTTPServerTransport>();

  const startSession = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readJson(req);
    if (body === undefined) return rpcError(res, 400, -32700, 'Parse error: the body is not JSON');
    if (!isInitializeRequest(body)) {
      return rpcError(res, 400, -32000, 'Bad Request: no valid mcp-session-id; initialize first');
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await serverFactory().connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path !== MCP_HTTP_PATH)
      return rpcError(res, 404, -32000, `Not found: use ${MCP_HTTP_PATH}`);
    if (!authorized(req.headers.authorization)) {
      res.setHeader('www-authenticate', 'Bearer realm="hermes"');
      return rpcError(res, 401, -32001, 'Unauthorized: a valid bearer key is required');
    }
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const transport = sessions.get(sessionId);
      if (!transport) return rpcError(res, 404, -32001, 'Session not found');
      return transport.handleRequest(req, res);
    }
    if (req.method === 'POST') return startSession(req, res);
    return rpcError(res, 400, -32000, 'Bad Request: no valid mcp-session-id');
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      options.logger?.warn(`mcp serve: request failed: ${(error as Error).message}`);
      rpcError(res, 500, -32603, 'Internal error');
    });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const port = (http.address() as AddressInfo).port;
  return { url: `http://${host}:${port}${MCP_HTTP_PATH}`, port, ...closer(http, sessions) };
}

/** `closed` and `close()` of an HTTP handle: every session, then the listener. */
function closer(
  http: ReturnType<typeof createServer>,
  sessions: Map<string, StreamableHTTPServerTransport>,
): ServeHandle {
  let markClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    markClosed = resolve;
  });
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.allSettled(open.map((transport) => transport.close()));
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        // Open SSE streams would hold close() forever.
        http.closeAllConnections();
      });
      markClosed();
    })();
    return closing;
  };
  return { closed, close };
}
