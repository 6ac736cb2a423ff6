/**
 * An in-process fake of the two halves of Discord a bot talks to, on 127.0.0.1: the REST API
 * (`GET /gateway/bot`, create and edit a message, typing, `GET /channels/<id>`, start a thread
 * from a message) plus a CDN serving attachments, and the WebSocket gateway (HELLO,
 * IDENTIFY → READY, HEARTBEAT → ACK, RESUME → replay + RESUMED, dispatch of MESSAGE_CREATE and
 * THREAD_CREATE).
 * Tests drive it: `dispatchMessage` is a person typing, `drop` cuts the socket, `stall` turns the
 * socket into a black hole (no ACKs, nothing delivered), `silent` makes new connections never say
 * HELLO. Every step is observable through `waitFor`, so no test sleeps.
 */
import { EventEmitter, once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';

/** A message the bot posted or edited through REST. */
export interface FakeMessage {
  id: string;
  channelId: string;
  content: string;
  replyTo?: string;
  edits: number;
}

interface Frame {
  op: number;
  d?: unknown;
  s?: number | null;
  t?: string | null;
}

/** A file a message carries; the fake's CDN serves `body` at the attachment's URL. */
export interface FakeFile {
  filename: string;
  contentType?: string;
  body: Buffer;
  /** The size the message claims (default: the body's length). */
  size?: number;
  /** The CDN answers with this status instead of the file. */
  status?: number;
}

/** A REST refusal the fake returns for one channel. */
export interface FakeFailure {
  status: number;
  code: number;
  message: string;
  /** How many requests it answers; then the channel works again. Default: forever. */
  times?: number;
}

export const BOT_ID = '900000000000000001';

/** Events: `identify`, `resume`, `heartbeat`, `connection`, `rest` (method, path). */
export class FakeDiscord extends EventEmitter {
  readonly messages: FakeMessage[] = [];
  readonly typing: string[] = [];
  readonly restLog: string[] = [];
  readonly authHeaders: string[] = [];
  identifies = 0;
  resumes = 0;
  heartbeatIntervalMs = 100;
  /** While true, new connections never get HELLO (a gateway that accepts and hangs). */
  silent = false;
  connections = 0;
  readonly failures = new Map<string, FakeFailure>();
  /** Channels `GET /channels/<id>` knows (threads the tests made, threads the bot started). */
  readonly channels = new Map<string, Record<string, unknown>>();
  /** Threads the bot started from a message (`auto_thread`). */
  readonly threadStarts: Array<{ channelId: string; messageId: string; name: string }> = [];
  /** CDN paths downloaded, in order. */
  readonly downloads: string[] = [];
  readonly #files = new Map<string, FakeFile>();
  #server: Server;
  #wss: WebSocketServer;
  #socket: WebSocket | undefined;
  #live = false;
  #seq = 0;
  #sessionId = '';
  #sessionNo = 0;
  #events: Frame[] = [];
  #nextId = 1_000;
  #port = 0;

  private constructor(readonly token: string) {
    super();
    this.#server = createServer((req, res) => void this.#rest(req, res));
    this.#wss = new WebSocketServer({ server: this.#server });
    this.#wss.on('connection', (socket) => this.#connection(socket));
  }

  /** Starts a fake that accepts `token` on 127.0.0.1 and a free port. */
  static async start(token = 'fake-discord-token.abc.xyz'): Promise<FakeDiscord> {
    const fake = new FakeDiscord(token);
    fake.#server.listen(0, '127.0.0.1');
    await once(fake.#server, 'listening');
    fake.#port = (fake.#server.address() as AddressInfo).port;
    return fake;
  }

  /** The REST root to configure as `api_url`. */
  get apiUrl(): string {
    return `http://127.0.0.1:${this.#port}/api`;
  }

  /** Resolves the next time `event` is emitted and `test` accepts its first argument. */
  waitFor<T = unknown>(event: string, test: (value: T) => boolean = () => true): Promise<T> {
    return new Promise((resolve) => {
      const listener = (value: T) => {
        if (!test(value)) return;
        this.off(event, listener);
        resolve(value);
      };
      this.on(event, listener);
    });
  }

  /** Waits until the bot has posted `count` messages in total. */
  async waitForMessages(count: number): Promise<FakeMessage[]> {
    while (this.messages.length < count) await this.waitFor('rest');
    return this.messages;
  }

  /** A person posts `content`; delivered now, or replayed on RESUME when the socket is down. */
  dispatchMessage(input: {
    channelId: string;
    userId: string;
    content: string;
    guildId?: string;
    username?: string;
    bot?: boolean;
    mentionsBot?: boolean;
    replyToBotMessage?: string;
    files?: FakeFile[];
  }): string {
    const id = String(this.#nextId++);
    const attachments = (input.files ?? []).map((file, i) => {
      const path = `/cdn/attachments/${input.channelId}/${id}-${i}/${file.filename}`;
      this.#files.set(path, file);
      return {
        id: `${id}${i}`,
        filename: file.filename,
        size: file.size ?? file.body.length,
        url: `http://127.0.0.1:${this.#port}${path}`,
        proxy_url: `http://127.0.0.1:${this.#port}${path}`,
        ...(file.contentType ? { content_type: file.contentType } : {}),
      };
    });
    const d: Record<string, unknown> = {
      id,
      channel_id: input.channelId,
      content: input.content,
      timestamp: new Date().toISOString(),
      author: { id: input.userId, username: input.username ?? 'someone', bot: input.bot ?? false },
      mentions: input.mentionsBot ? [{ id: BOT_ID, username: 'hermes', bot: true }] : [],
      attachments,
    };
    if (input.guildId) d.guild_id = input.guildId;
    if (input.replyToBotMessage) {
      d.message_reference = { message_id: input.replyToBotMessage, channel_id: input.channelId };
      d.referenced_message = { id: input.replyToBotMessage, author: { id: BOT_ID, bot: true } };
    }
    this.#dispatch('MESSAGE_CREATE', d);
    return id;
  }

  /**
   * A thread under `parentId` exists (type 11 public, 12 private, 10 announcement). With
   * `announce`, the gateway tells the bot (THREAD_CREATE); without, only `GET /channels` knows.
   */
  addThread(input: {
    id: string;
    parentId: string;
    guildId?: string;
    ownerId?: string;
    type?: number;
    announce?: boolean;
  }): void {
    const channel = {
      id: input.id,
      type: input.type ?? 11,
      parent_id: input.parentId,
      guild_id: input.guildId ?? 'g-1',
      owner_id: input.ownerId ?? 'someone-else',
      name: `thread ${input.id}`,
    };
    this.channels.set(input.id, channel);
    if (input.announce ?? true)
      this.#dispatch('THREAD_CREATE', { ...channel, newly_created: true });
  }

  /** Cuts the gateway connection abruptly, as a network failure would. */
  drop(): void {
    this.#live = false;
    this.#socket?.terminate();
    this.#socket = undefined;
  }

  /** Turns the current connection into a black hole: open, but silent both ways. */
  stall(): void {
    this.#live = false;
    this.#socket = undefined;
  }

  async close(): Promise<void> {
    for (const client of this.#wss.clients) client.terminate();
    this.#wss.close();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #dispatch(t: string, d: unknown): void {
    const frame: Frame = { op: 0, t, s: ++this.#seq, d };
    this.#events.push(frame);
    if (this.#live) this.#socket?.send(JSON.stringify(frame));
  }

  #connection(socket: WebSocket): void {
    this.connections += 1;
    this.emit('connection', this.connections);
    if (this.silent) return;
    socket.on('message', (raw) => this.#frame(socket, JSON.parse(String(raw)) as Frame));
    socket.send(JSON.stringify({ op: 10, d: { heartbeat_interval: this.heartbeatIntervalMs } }));
  }

  #frame(socket: WebSocket, frame: Frame): void {
    if (socket !== this.#socket && frame.op !== 2 && frame.op !== 6) return;
    const d = (frame.d ?? {}) as Record<string, unknown>;
    if (frame.op === 1) {
      socket.send(JSON.stringify({ op: 11 }));
      this.emit('heartbeat');
    } else if (frame.op === 2) {
      this.authHeaders.push(String(d.token));
      if (d.token !== this.token) return void socket.close(4004, 'Authentication failed.');
      this.identifies += 1;
      this.#socket = socket;
      this.#live = true;
      this.#sessionId = `session-${++this.#sessionNo}`;
      this.#events = [];
      this.#dispatch('READY', {
        v: 10,
        user: { id: BOT_ID, username: 'hermes', bot: true },
        guilds: [],
        session_id: this.#sessionId,
        resume_gateway_url: `ws://127.0.0.1:${this.#port}`,
        shard: [0, 1],
        application: { id: BOT_ID, flags: 0 },
      });
      this.emit('identify');
    } else if (frame.op === 6) {
      if (d.token !== this.token || d.session_id !== this.#sessionId) {
        return void socket.send(JSON.stringify({ op: 9, d: false }));
      }
      this.resumes += 1;
      this.#socket = socket;
      this.#live = true;
      for (const missed of this.#events.filter((e) => (e.s ?? 0) > Number(d.seq ?? 0))) {
        socket.send(JSON.stringify(missed));
      }
      this.#dispatch('RESUMED', {});
      this.emit('resume');
    }
  }

  async #rest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length
      ? (JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>)
      : {};
    const path = (req.url ?? '').replace(/^\/api\/v10/, '');
    const reply = (status: number, json?: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(json === undefined ? undefined : JSON.stringify(json));
    };
    const file = this.#files.get(path);
    if (req.method === 'GET' && path.startsWith('/cdn/')) {
      // The CDN needs no token, as Discord's does not.
      this.downloads.push(path);
      res.writeHead(file?.status ?? (file ? 200 : 404), {
        'content-type': file?.contentType ?? 'application/octet-stream',
      });
      res.end(file && !file.status ? file.body : undefined);
      this.emit('download', path);
      return;
    }
    this.authHeaders.push(String(req.headers.authorization));
    if (req.headers.authorization !== `Bot ${this.token}`) {
      reply(401, { message: '401: Unauthorized', code: 0 });
    } else {
      this.#route(req.method ?? 'GET', path, body, reply);
    }
    this.restLog.push(`${req.method} ${path}`);
    this.emit('rest', `${req.method} ${path}`);
  }

  #route(
    method: string,
    path: string,
    body: Record<string, unknown>,
    reply: (status: number, json?: unknown) => void,
  ): void {
    if (method === 'GET' && path === '/gateway/bot') {
      reply(200, {
        url: `ws://127.0.0.1:${this.#port}`,
        shards: 1,
        session_start_limit: {
          total: 1000,
          remaining: 1000,
          reset_after: 60_000,
          max_concurrency: 1,
        },
      });
      return;
    }
    const lookup = /^\/channels\/([^/?]+)$/.exec(path);
    if (method === 'GET' && lookup) {
      const refused = this.failures.get(lookup[1] ?? '');
      const channel = this.channels.get(lookup[1] ?? '');
      if (refused) reply(refused.status, { message: refused.message, code: refused.code });
      else if (channel) reply(200, channel);
      // Any other id is a plain guild text channel.
      else reply(200, { id: lookup[1], type: 0, guild_id: 'g-1', name: 'general' });
      return;
    }
    const start = /^\/channels\/([^/]+)\/messages\/([^/]+)\/threads$/.exec(path);
    if (method === 'POST' && start) {
      const [, channelId = '', messageId = ''] = start;
      this.threadStarts.push({ channelId, messageId, name: String(body.name ?? '') });
      // Discord gives a thread started from a message the message's id.
      this.addThread({ id: messageId, parentId: channelId, ownerId: BOT_ID });
      reply(201, this.channels.get(messageId));
      return;
    }
    const match = /^\/channels\/([^/]+)\/(messages|typing)(?:\/([^/?]+))?/.exec(path);
    if (!match) {
      reply(404, { message: 'Unknown route', code: 0 });
      return;
    }
    const [, channelId = '', kind, messageId] = match;
    const failure = this.failures.get(channelId);
    if (failure) {
      if (failure.times !== undefined && --failure.times <= 0) this.failures.delete(channelId);
      reply(failure.status, { message: failure.message, code: failure.code });
      return;
    }
    if (kind === 'typing') {
      this.typing.push(channelId);
      reply(204);
      return;
    }
    if (method === 'POST') {
      const reference = body.message_reference as { message_id?: string } | undefined;
      const message: FakeMessage = {
        id: String(this.#nextId++),
        channelId,
        content: String(body.content ?? ''),
        edits: 0,
        ...(reference?.message_id ? { replyTo: reference.message_id } : {}),
      };
      this.messages.push(message);
      reply(200, { id: message.id, channel_id: channelId, content: message.content });
      return;
    }
    const existing = this.messages.find((m) => m.id === messageId && m.channelId === channelId);
    if (method === 'PATCH' && existing) {
      existing.content = String(body.content ?? '');
      existing.edits += 1;
      reply(200, { id: existing.id, channel_id: channelId, content: existing.content });
      return;
    }
    reply(404, { message: 'Unknown Message', code: 10008 });
  }
}
