/**
 * The scripted model server: a real `node:http` server on 127.0.0.1 (port 0 unless told) that
 * answers OpenAI Chat Completions, OpenAI Responses and Anthropic Messages requests from a queue
 * of scripted turns, and records every request it receives.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { parseOrThrow } from '@hermes/protocol';
import { ScriptBuilder } from './builder.js';
import { createRequestHandler, DEFAULT_MAX_BODY_BYTES } from './http/handler.js';
import type { RecordedRequest } from './http/recorded-request.js';
import { TurnQueue } from './http/turn-queue.js';
import {
  type Script,
  type ScriptInput,
  ScriptSchema,
  type ScriptTurnInput,
  ScriptTurnSchema,
  type WireProtocol,
} from './script.js';

/** Protocols whose clients take the base URL with `/v1`. */
const OPENAI_PROTOCOLS: ReadonlySet<WireProtocol> = new Set(['openai-chat', 'openai-responses']);
/** A script in any of the forms the server accepts: plain data, a parsed script, or a builder. */
export type ScriptSource = ScriptInput | Script | ScriptBuilder;

/** Where the server listens. */
export interface ScriptedServerOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  readonly port?: number;
  /** Interface to listen on; default `127.0.0.1`. */
  readonly host?: string;
  /** The largest request body accepted, in bytes; larger ones get a 413. Default 64 MiB. */
  readonly maxBodyBytes?: number;
}

/** A running scripted server. Always `close()` it, typically in `afterEach`. */
export interface ScriptedServer {
  /** The server's root URL, e.g. `http://127.0.0.1:41234` (no trailing slash). */
  readonly url: string;
  /** The port actually listened on. */
  readonly port: number;
  /**
   * The base URL the official SDK for `protocol` expects: `${url}/v1` for the `openai` client
   * (both OpenAI protocols), `url` itself for `@anthropic-ai/sdk`.
   */
  baseUrl(protocol: WireProtocol): string;
  /** Every request received so far, oldest first (a live view; see {@link RecordedRequest}). */
  readonly requests: readonly RecordedRequest[];
  /** Answers still queued: a turn with `times: n` counts once per use left. */
  remaining(): number;
  /** Appends turns to the end of the queue. */
  enqueue(...turns: ScriptTurnInput[]): void;
  /** Replaces the queue and the model list with `script` (empty when omitted) and forgets recorded requests. */
  reset(script?: ScriptSource): void;
  /** Stops listening and ends every open connection, stalled streams included. Safe to call twice. */
  close(): Promise<void>;
}

/** Parses any accepted script form, naming the offending path when it is invalid. */
export function resolveScript(source: ScriptSource): Script {
  if (source instanceof ScriptBuilder) return source.build();
  return parseOrThrow(ScriptSchema, source, 'script');
}

function formatUrl(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

/**
 * Starts a scripted server answering from `script`.
 *
 * @example
 * ```ts
 * const server = await startScriptedServer(script().text('Hello!'));
 * const client = new OpenAI({ baseURL: server.baseUrl('openai-chat'), apiKey: 'test' });
 * ```
 * @throws ValidationError when the script is invalid; the listen error when the port is taken.
 */
export async function startScriptedServer(
  script: ScriptSource,
  options: ScriptedServerOptions = {},
): Promise<ScriptedServer> {
  let current = resolveScript(script);
  const queue = new TurnQueue(current.turns);
  const requests: RecordedRequest[] = [];
  const closing = new AbortController();
  const sockets = new Set<Socket>();
  const server = createServer(
    createRequestHandler({
      queue,
      requests,
      models: () => current.models,
      closing: closing.signal,
      maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    }),
  );
  server.on('connection', (socket) => {
    socket.setNoDelay(true);
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const host = options.host ?? '127.0.0.1';
  const { port } = await listen(server, options.port ?? 0, host);
  const url = formatUrl(host, port);
  let closed: Promise<void> | undefined;
  return {
    url,
    port,
    // Anthropic, Bedrock and Gemini clients take the origin and add their own path prefix.
    baseUrl: (protocol) => (OPENAI_PROTOCOLS.has(protocol) ? `${url}/v1` : url),
    requests,
    remaining: () => queue.remaining(),
    enqueue: (...turns) =>
      queue.add(turns.map((turn) => parseOrThrow(ScriptTurnSchema, turn, 'turn'))),
    reset: (next = { turns: [] }) => {
      current = resolveScript(next);
      queue.replace(current.turns);
      requests.length = 0;
    },
    close: () => {
      closed ??= new Promise<void>((resolve) => {
        closing.abort();
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      });
      return closed;
    },
  };
}
