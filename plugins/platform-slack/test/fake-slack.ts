/**
 * A fake Slack for the tests, on 127.0.0.1: the Web API methods the adapter calls (auth.test,
 * chat.postMessage, chat.update, conversations.info, apps.connections.open) over HTTP, a
 * Socket Mode WebSocket server (hello, events_api envelopes, acks, disconnect, drops, stalls),
 * and private file downloads that need `Authorization: Bearer <bot token>`.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';

/** One Web API call the fake saw. */
export interface FakeCall {
  readonly method: string;
  readonly token: string;
  readonly params: Record<string, string>;
}

/** A message the fake holds, as posted and then edited. */
export interface FakeMessage {
  readonly channel: string;
  readonly ts: string;
  readonly threadTs?: string;
  text: string;
  edits: number;
}

type Waiter = { check: () => boolean; resolve: () => void };

/** A file the fake serves at its `url_private_download`. */
interface FakeFile {
  readonly bytes: Buffer;
  readonly contentType: string;
  /** Answer this status instead of the file. */
  readonly status?: number;
  /** The answer waits for this (a slow download). */
  readonly hold?: Promise<void>;
}

/** One file download the fake saw. */
export interface FakeDownload {
  readonly path: string;
  readonly authorization: string;
  readonly served: boolean;
}

/** The fake; see the module comment. */
export class FakeSlack {
  readonly calls: FakeCall[] = [];
  readonly messages: FakeMessage[] = [];
  /** Slack `error` codes to answer, per method, instead of `ok: true`. */
  readonly failures = new Map<string, string>();
  /** HTTP statuses to answer, per method, one per call, before answering normally. */
  readonly httpFailures = new Map<string, number[]>();
  readonly botUserId = 'UBOT';
  /** Socket Mode connections opened so far. */
  connections = 0;
  /** The token a file download must carry; files are refused (403) without it. */
  fileToken = '';
  readonly downloads: FakeDownload[] = [];
  readonly #files = new Map<string, FakeFile>();
  #fileCount = 0;
  readonly #server: Server;
  readonly #wss: WebSocketServer;
  #socket: WebSocket | undefined;
  readonly #stalled = new Set<WebSocket>();
  #ts = 1_700_000_000;
  #envelope = 0;
  readonly #acks = new Map<string, () => void>();
  readonly #waiters: Waiter[] = [];

  private constructor() {
    this.#server = createServer((req, res) => void this.#route(req, res));
    this.#wss = new WebSocketServer({ server: this.#server, path: '/link', autoPong: false });
    this.#wss.on('connection', (socket) => this.#accept(socket));
  }

  /** Starts the fake on a free port. */
  static async start(): Promise<FakeSlack> {
    const fake = new FakeSlack();
    fake.#server.listen(0, '127.0.0.1');
    await once(fake.#server, 'listening');
    return fake;
  }

  /** The Web API base URL (`api_url`). */
  get apiUrl(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/api/`;
  }

  /** Resolves once `check()` holds (checked at every call, message and connection). */
  waitFor(check: () => boolean): Promise<void> {
    if (check()) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ check, resolve }));
  }

  /** Resolves once a Socket Mode connection number `n` said hello. */
  waitForConnection(n: number): Promise<void> {
    return this.waitFor(() => this.connections >= n && this.#socket !== undefined);
  }

  /** Delivers an Events API event over Socket Mode; resolves when the client acks it. */
  async push(event: Record<string, unknown>): Promise<void> {
    const socket = this.#socket;
    if (!socket) throw new Error('no socket mode connection');
    const id = `env-${++this.#envelope}`;
    const acked = new Promise<void>((resolve, reject) => {
      this.#acks.set(id, resolve);
      socket.once('close', () => reject(new Error('the socket closed before the ack')));
    });
    socket.send(JSON.stringify({ envelope_id: id, type: 'events_api', payload: { event } }));
    await acked;
  }

  /** A DM (`channel_type: im`) from `user`. */
  dm(user: string, text: string, channel = 'D0001'): Promise<void> {
    return this.push({
      type: 'message',
      channel_type: 'im',
      channel,
      user,
      text,
      ts: this.#nextTs(),
    });
  }

  /**
   * Serves `bytes` as a private file and returns its entry as a message event's `files` holds
   * it. `size` (default: the real one) is what the event claims; `status` answers instead.
   */
  serveFile(
    name: string,
    bytes: Buffer,
    mimetype: string,
    options: { size?: number; status?: number; contentType?: string; hold?: Promise<void> } = {},
  ): Record<string, unknown> {
    const id = `F${++this.#fileCount}`;
    const path = `/files-pri/T1-${id}/download/${encodeURIComponent(name)}`;
    const contentType = options.contentType ?? mimetype;
    this.#files.set(path, {
      bytes,
      contentType,
      ...(options.status ? { status: options.status } : {}),
    });
    const origin = new URL(this.apiUrl).origin;
    return {
      id,
      name,
      mimetype,
      size: options.size ?? bytes.length,
      url_private_download: `${origin}${path}`,
    };
  }

  /** Closes the current socket abruptly (a dropped connection). */
  drop(): void {
    this.#socket?.terminate();
    this.#socket = undefined;
  }

  /** Sends Slack's `disconnect` (refresh) on the current socket. */
  askToReconnect(): void {
    this.#socket?.send(JSON.stringify({ type: 'disconnect', reason: 'refresh_requested' }));
  }

  /** The current socket stops answering pings and delivering (a stalled connection). */
  stall(): void {
    if (this.#socket) this.#stalled.add(this.#socket);
    this.#socket = undefined;
  }

  async close(): Promise<void> {
    for (const client of this.#wss.clients) client.terminate();
    this.#wss.close();
    this.#server.closeAllConnections();
    await new Promise((resolve) => this.#server.close(resolve));
  }

  #accept(socket: WebSocket): void {
    this.connections += 1;
    this.#socket = socket;
    socket.on('ping', (data) => {
      if (!this.#stalled.has(socket)) socket.pong(data);
    });
    socket.on('close', () => {
      if (this.#socket === socket) this.#socket = undefined;
    });
    socket.on('message', (data) => {
      const { envelope_id } = JSON.parse(data.toString()) as { envelope_id?: string };
      if (envelope_id) this.#acks.get(envelope_id)?.();
    });
    socket.send(JSON.stringify({ type: 'hello', num_connections: 1 }));
    this.#notify();
  }

  #nextTs(): string {
    this.#ts += 1;
    return `${this.#ts}.000100`;
  }

  async #download(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '').split('?')[0] ?? '';
    const authorization = req.headers.authorization ?? '';
    const file = this.#files.get(path);
    const allowed = this.fileToken !== '' && authorization === `Bearer ${this.fileToken}`;
    const status = !file ? 404 : !allowed ? 403 : (file.status ?? 200);
    this.downloads.push({ path, authorization, served: status === 200 });
    this.#notify();
    if (file?.hold) await file.hold;
    if (status !== 200 || !file) {
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end('no');
    } else {
      res.writeHead(200, { 'content-type': file.contentType });
      res.end(file.bytes);
    }
    this.#notify();
  }

  async #route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if ((req.url ?? '').startsWith('/files-pri/')) return this.#download(req, res);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString();
    const params = (req.headers['content-type'] ?? '').includes('json')
      ? (JSON.parse(body || '{}') as Record<string, string>)
      : Object.fromEntries(new URLSearchParams(body));
    const method = (req.url ?? '').replace(/^\/api\//, '').split('?')[0] ?? '';
    const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    this.calls.push({ method, token, params });
    const status = this.httpFailures.get(method)?.shift();
    if (status !== undefined) {
      res.writeHead(status, { 'content-type': 'application/json', 'retry-after': '0' });
      res.end(JSON.stringify({ ok: false, error: 'fake_http_failure' }));
      this.#notify();
      return;
    }
    const failure = this.failures.get(method);
    const answer = failure ? { ok: false, error: failure } : this.#answer(method, params, req);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer));
    this.#notify();
  }

  #answer(method: string, params: Record<string, string>, req: IncomingMessage): object {
    switch (method) {
      case 'auth.test':
        return { ok: true, user_id: this.botUserId, team_id: 'T1', bot_id: 'B1' };
      case 'apps.connections.open':
        return { ok: true, url: `ws://${req.headers.host}/link` };
      case 'chat.postMessage': {
        const message: FakeMessage = {
          channel: params.channel ?? '',
          ts: this.#nextTs(),
          ...(params.thread_ts ? { threadTs: params.thread_ts } : {}),
          text: params.text ?? '',
          edits: 0,
        };
        this.messages.push(message);
        return { ok: true, channel: message.channel, ts: message.ts };
      }
      case 'chat.update': {
        const message = this.messages.find((m) => m.ts === params.ts);
        if (!message) return { ok: false, error: 'message_not_found' };
        message.text = params.text ?? '';
        message.edits += 1;
        return { ok: true, channel: message.channel, ts: message.ts };
      }
      case 'conversations.info':
        return {
          ok: true,
          channel: { id: params.channel, is_im: params.channel?.startsWith('D') },
        };
      default:
        return { ok: false, error: 'unknown_method' };
    }
  }

  #notify(): void {
    for (const waiter of [...this.#waiters]) {
      if (waiter.check()) {
        this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  }
}
