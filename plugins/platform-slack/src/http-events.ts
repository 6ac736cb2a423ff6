/**
 * Slack's HTTP Events API: a node:http endpoint that Slack POSTs signed events to (the app's
 * Request URL). Each request is verified against the signing secret before anything in it is
 * believed; an event is acked with 200 at once (Slack retries after 3 s) and then handed on.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ConnectionState, ConnectionTracker } from '@hermes/plugin-sdk';
import { z } from 'zod';
import type { SlackEventPayload } from './socket-mode.js';

/** Slack's request bodies are small; anything over this is refused with 413 before parsing. */
export const MAX_EVENT_BODY_BYTES = 1024 * 1024;

/** How far `X-Slack-Request-Timestamp` may be from this clock, either way (Slack's advice). */
export const SIGNATURE_WINDOW_SECONDS = 5 * 60;

/** Event ids remembered to answer Slack's retries once; the oldest are forgotten first. */
const SEEN_EVENT_IDS = 1_000;

/** What the endpoint reports to its owner. */
export interface HttpEventsHooks {
  /** One verified `event_callback` body, after Slack got its 200. */
  onEvent(payload: SlackEventPayload): void;
  /** Diagnostics (never the secret, never a body). */
  log(level: 'info' | 'warn', message: string): void;
}

/** Where and how the endpoint listens. */
export interface HttpEventsOptions {
  readonly signingSecret: string;
  readonly host: string;
  readonly port: number;
  readonly path: string;
  /** Seconds since the epoch; injectable so tests can check the window without waiting. */
  readonly nowSeconds?: () => number;
}

const BodySchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('url_verification'), challenge: z.string().min(1).max(1_000) }),
  z.object({
    type: z.literal('event_callback'),
    event_id: z.string().regex(/^[\w-]{1,200}$/),
    event: z.record(z.string(), z.unknown()),
  }),
]);

/** The signature Slack sends for `rawBody` at `timestamp`: `v0=` + hex HMAC-SHA256. */
export function signSlackRequest(
  secret: string,
  timestamp: number | string,
  rawBody: string | Buffer,
): string {
  const mac = createHmac('sha256', secret).update(`v0:${timestamp}:`).update(rawBody);
  return `v0=${mac.digest('hex')}`;
}

/**
 * Whether `signature` is Slack's for `rawBody` at `timestamp`, and the timestamp is within
 * {@link SIGNATURE_WINDOW_SECONDS} of `nowSeconds`. Compared in constant time.
 */
export function verifySlackRequest(
  secret: string,
  headers: { readonly signature?: string; readonly timestamp?: string },
  rawBody: Buffer,
  nowSeconds: number,
): boolean {
  const { signature, timestamp } = headers;
  if (!signature || !timestamp || !/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > SIGNATURE_WINDOW_SECONDS) return false;
  const hex = /^v0=([0-9a-f]{64})$/.exec(signature)?.[1];
  if (!hex) return false;
  const expected = createHmac('sha256', secret).update(`v0:${timestamp}:`).update(rawBody).digest();
  return timingSafeEqual(Buffer.from(hex, 'hex'), expected);
}

/** The endpoint; see the module comment. */
export class HttpEventsServer {
  readonly #options: HttpEventsOptions;
  readonly #hooks: HttpEventsHooks;
  readonly #server: Server;
  readonly #tracker = new ConnectionTracker();
  readonly #seen = new Set<string>();

  constructor(options: HttpEventsOptions, hooks: HttpEventsHooks) {
    this.#options = options;
    this.#hooks = hooks;
    this.#server = createServer((req, res) => this.#handle(req, res));
  }

  /** Where it was asked to listen. */
  get options(): { host: string; port: number } {
    return { host: this.#options.host, port: this.#options.port };
  }

  /** The address served, once listening. */
  get address(): { host: string; port: number } | undefined {
    const address = this.#server.address() as AddressInfo | null;
    return address ? { host: this.#options.host, port: address.port } : undefined;
  }

  /** Up while listening; the endpoint has no link to re-establish, so no reconnects. */
  state(): ConnectionState {
    return this.#tracker.state();
  }

  /** Listens; rejects with the system error (e.g. `EADDRINUSE`) when it cannot. */
  async start(): Promise<void> {
    this.#server.listen(this.#options.port, this.#options.host);
    await once(this.#server, 'listening'); // rejects on the server's 'error'
    this.#tracker.markUp();
  }

  /** Stops listening and drops open connections. Idempotent. */
  async stop(): Promise<void> {
    this.#tracker.markDown();
    if (!this.#server.listening) return;
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    this.#server.closeAllConnections();
    await closed;
  }

  #handle(req: IncomingMessage, res: ServerResponse): void {
    const path = (req.url ?? '').split('?')[0];
    if (path !== this.#options.path) {
      answer(res, 404, 'not found');
    } else if (req.method !== 'POST') {
      answer(res, 405, 'method not allowed', { allow: 'POST' });
    } else if (Number(req.headers['content-length'] ?? 0) > MAX_EVENT_BODY_BYTES) {
      tooLarge(req, res);
    } else {
      this.#read(req, res);
    }
  }

  /** Reads the body up to the cap (a chunked body may not declare its length), then receives it. */
  #read(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_EVENT_BODY_BYTES) tooLarge(req, res);
      else chunks.push(chunk);
    });
    req.on('end', () => {
      if (!res.headersSent) this.#receive(req, res, Buffer.concat(chunks));
    });
    req.on('error', () => req.destroy());
  }

  #receive(req: IncomingMessage, res: ServerResponse, rawBody: Buffer): void {
    const signature = header(req, 'x-slack-signature');
    const timestamp = header(req, 'x-slack-request-timestamp');
    const now = this.#options.nowSeconds?.() ?? Math.floor(Date.now() / 1000);
    const headers = { ...(signature ? { signature } : {}), ...(timestamp ? { timestamp } : {}) };
    if (!verifySlackRequest(this.#options.signingSecret, headers, rawBody, now)) {
      this.#hooks.log('warn', 'slack: refused an events request: bad or stale signature');
      answer(res, 401, 'invalid signature');
      return;
    }
    const json = parseJson(rawBody);
    const body = BodySchema.safeParse(json);
    if (json === undefined) {
      answer(res, 400, 'bad request');
    } else if (!body.success) {
      answer(res, 200, ''); // other callbacks (app_rate_limited, …) need no action here
    } else if (body.data.type === 'url_verification') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ challenge: body.data.challenge }));
    } else {
      answer(res, 200, ''); // first: Slack retries what is not acked within 3 s
      this.#accept(body.data.event_id, body.data.event, header(req, 'x-slack-retry-num'));
    }
  }

  /** Hands an event on once, however often Slack delivered it. */
  #accept(eventId: string, event: Record<string, unknown>, retry: string | undefined): void {
    if (this.#seen.has(eventId)) {
      this.#hooks.log(
        'info',
        `slack: event ${eventId} delivered again (retry ${retry ?? 'none'}); ignored`,
      );
      return;
    }
    this.#seen.add(eventId);
    if (this.#seen.size > SEEN_EVENT_IDS) {
      this.#seen.delete(this.#seen.values().next().value as string);
    }
    this.#hooks.onEvent({ event });
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value.trim() : undefined;
}

function parseJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return undefined;
  }
}

function answer(
  res: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
  res.end(text);
}

/** 413, then the connection is closed so the rest of the body is not read. */
function tooLarge(req: IncomingMessage, res: ServerResponse): void {
  if (res.headersSent) return;
  res.writeHead(413, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
  res.end('payload too large', () => req.destroy());
}
