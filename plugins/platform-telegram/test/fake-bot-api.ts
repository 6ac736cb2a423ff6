/**
 * A local fake of the Telegram Bot API for the tests: an in-process HTTP server on 127.0.0.1
 * speaking `POST /bot<token>/<method>` with the methods the adapter uses (getMe, getUpdates long
 * polling, sendMessage, editMessageText, sendChatAction). It checks MarkdownV2 the way Telegram
 * does (an unescaped reserved character or an unclosed entity is a 400), enforces 4,096
 * characters, and can stall or drop a poll, or refuse a chat for good. Webhooks: see
 * `fake-webhook.ts`; like Telegram, it refuses `getUpdates` (409) while a webhook is set.
 */
import { EventEmitter, once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { type FakeDelivery, FakeWebhook } from './fake-webhook.ts';

export const FAKE_BOT = {
  id: 999,
  is_bot: true,
  first_name: 'Hermes',
  username: 'hermes_test_bot',
};

/** One call the fake received (after routing), with its JSON parameters. */
export interface FakeCall {
  readonly method: string;
  readonly params: Record<string, unknown>;
}

/** A message the bot sent or edited, as the chat shows it now. */
export interface FakeSent {
  readonly chatId: string;
  readonly messageId: number;
  text: string;
  readonly parseMode: string | undefined;
  readonly threadId: number | undefined;
  edits: number;
}

/** A user's message to push into the bot's updates. */
export interface FakeInbound {
  readonly chatId: string | number;
  readonly userId: string | number;
  readonly text: string;
  readonly chatType?: 'private' | 'group' | 'supergroup';
  readonly userName?: string;
  readonly threadId?: number;
  readonly replyToBot?: boolean;
  /** A file the message carries (its caption is `text`). */
  readonly file?: {
    kind: 'photo' | 'document' | 'voice';
    content: string;
    name?: string;
    mimeType?: string;
  };
}

type Failure = { code: number; description: string };

/** Telegram's MarkdownV2 rules, enough to reject what Telegram would. Returns the error or undefined. */
export function checkMarkdownV2(text: string): string | undefined {
  const open: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch === '\\') {
      i++;
      continue;
    }
    const inCode = open.at(-1) === '`' || open.at(-1) === '```';
    if (text.startsWith('```', i)) {
      if (open.at(-1) === '```') open.pop();
      else if (!inCode) open.push('```');
      i += 2;
      continue;
    }
    if (ch === '`') {
      if (open.at(-1) === '`') open.pop();
      else if (!inCode) open.push('`');
      continue;
    }
    if (inCode) continue;
    if ('*_~'.includes(ch)) {
      if (open.at(-1) === ch) open.pop();
      else open.push(ch);
      continue;
    }
    if (ch === '[') {
      const link = /^\[[^\]]*\]\((?:[^)\\]|\\.)*\)/.exec(text.slice(i));
      if (link) {
        i += link[0].length - 1;
        continue;
      }
    }
    if ('_*[]()~`>#+-=|{}.!'.includes(ch)) {
      return `Bad Request: can't parse entities: Character '${ch}' is reserved and must be escaped with the preceding '\\'`;
    }
  }
  if (open.length > 0)
    return `Bad Request: can't parse entities: Can't find end of the entity starting at byte offset 0`;
  return undefined;
}

/** The fake server; `start()` it, point `api_root` at `url`, `close()` it after. */
export class FakeBotApi extends EventEmitter {
  readonly calls: FakeCall[] = [];
  /** The webhook Telegram would post to; `deliver` posts through it. */
  readonly webhook = new FakeWebhook();
  readonly sent: FakeSent[] = [];
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  readonly #updates: Record<string, unknown>[] = [];
  readonly #failures = new Map<string, Failure>();
  readonly #files = new Map<string, { path: string; content: string }>();
  readonly #rateLimits = new Map<string, number>();
  #nextUpdate = 1;
  #nextMessage = 100;
  #stallPolls = 0;
  #dropPolls = 0;
  #holdPolls = 0;
  url = '';

  constructor(readonly token: string) {
    super();
    this.setMaxListeners(100);
    this.#server = createServer((req, res) => void this.#handle(req, res));
    this.#server.on('connection', (socket) => {
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
    });
  }

  async start(): Promise<this> {
    this.#server.listen(0, '127.0.0.1');
    await once(this.#server, 'listening');
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  /** The next `n` getUpdates calls are never answered (a half-open connection). */
  stallPolls(n = 1): void {
    this.#stallPolls += n;
  }

  /** The next `n` getUpdates calls (after any stalled ones) wait for `releasePolls()`. */
  holdPolls(n = 1): void {
    this.#holdPolls += n;
  }

  /** Lets the held getUpdates calls go on. */
  releasePolls(): void {
    this.emit('release');
  }

  /** The next `n` getUpdates calls have their connection destroyed. */
  dropPolls(n = 1): void {
    this.#dropPolls += n;
  }

  /** Files pushed so far can no longer be fetched (`getFile` answers 400). */
  forgetFiles(): void {
    this.#files.clear();
  }

  /** The next call of `method` is refused by flood control: 429 with `retry_after`. */
  rateLimitNext(method: string, retryAfterSeconds: number): void {
    this.#rateLimits.set(method, retryAfterSeconds);
  }

  /** Every send or edit to `chatId` fails with `code`/`description` from now on. */
  refuseChat(chatId: string, code: number, description: string): void {
    this.#failures.set(chatId, { code, description });
  }

  /** Queues a user's message as an update and wakes a waiting poll. */
  push(inbound: FakeInbound): void {
    this.#updates.push(this.update(inbound));
    this.emit('update');
  }

  /** Posts a user's message to the registered webhook; resolves with the update and the status. */
  async deliver(inbound: FakeInbound): Promise<FakeDelivery & { update: object }> {
    const update = this.update(inbound);
    return { ...(await this.webhook.post(update)), update };
  }

  /** A user's message as a Telegram update with the next `update_id`. */
  update(inbound: FakeInbound): Record<string, unknown> {
    const chatType = inbound.chatType ?? 'private';
    const message: Record<string, unknown> = {
      message_id: this.#nextMessage++,
      date: Math.floor(Date.now() / 1000),
      chat: { id: inbound.chatId, type: chatType },
      from: { id: inbound.userId, is_bot: false, first_name: inbound.userName ?? 'Ada' },
    };
    if (inbound.file) this.#attachFile(message, inbound.file, inbound.text);
    else message.text = inbound.text;
    const mention = inbound.text.indexOf(`@${FAKE_BOT.username}`);
    if (mention >= 0)
      message.entities = [
        { type: 'mention', offset: mention, length: FAKE_BOT.username.length + 1 },
      ];
    if (inbound.threadId !== undefined) {
      message.message_thread_id = inbound.threadId;
      message.is_topic_message = true;
    }
    if (inbound.replyToBot)
      message.reply_to_message = { message_id: 1, from: FAKE_BOT, chat: message.chat, date: 0 };
    return { update_id: this.#nextUpdate++, message };
  }

  #attachFile(
    message: Record<string, unknown>,
    file: NonNullable<FakeInbound['file']>,
    caption: string,
  ): void {
    const id = `file-${this.#files.size + 1}`;
    const path = `${file.kind}s/${file.name ?? `${id}.bin`}`;
    this.#files.set(id, { path, content: file.content });
    const meta = {
      file_id: id,
      file_unique_id: `u${id}`,
      file_size: Buffer.byteLength(file.content),
    };
    if (file.kind === 'photo') message.photo = [{ ...meta, width: 90, height: 90 }];
    else if (file.kind === 'voice')
      message.voice = { ...meta, duration: 1, mime_type: file.mimeType ?? 'audio/ogg' };
    else message.document = { ...meta, file_name: file.name, mime_type: file.mimeType };
    if (caption) message.caption = caption;
  }

  /** Resolves with the first call (past or future) that matches. */
  waitForCall(match: (call: FakeCall) => boolean): Promise<FakeCall> {
    const found = this.calls.find(match);
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => {
      const listener = (call: FakeCall) => {
        if (!match(call)) return;
        this.off('call', listener);
        resolve(call);
      };
      this.on('call', listener);
    });
  }

  /** Resolves once the messages in `chatId` satisfy `done`. */
  async waitForSent(chatId: string, done: (sent: FakeSent[]) => boolean): Promise<FakeSent[]> {
    const inChat = () => this.sent.filter((s) => s.chatId === chatId);
    while (!done(inChat())) await once(this, 'call');
    return inChat();
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body = '';
    for await (const chunk of req) body += chunk;
    const download = /^\/file\/bot([^/]+)\/(.+)$/.exec(req.url ?? '');
    if (download && download[1] === this.token) {
      const file = [...this.#files.values()].find((f) => f.path === download[2]);
      res.writeHead(file ? 200 : 404);
      res.end(file?.content ?? '');
      return;
    }
    const match = /^\/bot([^/]+)\/(\w+)$/.exec(req.url ?? '');
    if (!match || match[1] !== this.token) {
      return reply(res, { ok: false, error_code: 401, description: 'Unauthorized' });
    }
    const method = match[2] as string;
    const params = body ? (JSON.parse(body) as Record<string, unknown>) : {};
    if (method === 'getUpdates') return this.#getUpdates(req, res, params);
    const result = this.#answer(method, params);
    const call = { method, params };
    this.calls.push(call);
    reply(res, result);
    this.emit('call', call);
  }

  #answer(method: string, p: Record<string, unknown>): Record<string, unknown> {
    const chatId = String(p.chat_id);
    const failure = this.#failures.get(chatId);
    if (failure && method !== 'getMe') {
      return { ok: false, error_code: failure.code, description: failure.description };
    }
    const retryAfter = this.#rateLimits.get(method);
    if (retryAfter !== undefined) {
      this.#rateLimits.delete(method);
      return {
        ok: false,
        error_code: 429,
        description: `Too Many Requests: retry after ${retryAfter}`,
        parameters: { retry_after: retryAfter },
      };
    }
    const hook = this.webhook.answer(method, p);
    if (hook) return hook;
    const text = String(p.text ?? '');
    if (method === 'getMe') return { ok: true, result: FAKE_BOT };
    if (method === 'sendChatAction') return { ok: true, result: true };
    if (method === 'getFile') {
      const file = this.#files.get(String(p.file_id));
      if (!file) return { ok: false, error_code: 400, description: 'Bad Request: invalid file_id' };
      return {
        ok: true,
        result: { file_id: p.file_id, file_unique_id: `u${p.file_id}`, file_path: file.path },
      };
    }
    if (method !== 'sendMessage' && method !== 'editMessageText') {
      return { ok: false, error_code: 404, description: 'Not Found: method not found' };
    }
    if (text.length > 4096)
      return { ok: false, error_code: 400, description: 'Bad Request: message is too long' };
    const entityError = p.parse_mode === 'MarkdownV2' ? checkMarkdownV2(text) : undefined;
    if (entityError) return { ok: false, error_code: 400, description: entityError };
    const parseMode = p.parse_mode as string | undefined;
    if (method === 'sendMessage') {
      const threadId = p.message_thread_id as number | undefined;
      const sent = { chatId, messageId: this.#nextMessage++, text, parseMode, threadId, edits: 0 };
      this.sent.push(sent);
      return { ok: true, result: messageResult(sent) };
    }
    const target = this.sent.find(
      (s) => s.chatId === chatId && s.messageId === Number(p.message_id),
    );
    if (!target)
      return { ok: false, error_code: 400, description: 'Bad Request: message to edit not found' };
    if (target.text === text) {
      return { ok: false, error_code: 400, description: 'Bad Request: message is not modified' };
    }
    target.text = text;
    target.edits += 1;
    return { ok: true, result: messageResult(target) };
  }

  async #getUpdates(
    req: IncomingMessage,
    res: ServerResponse,
    p: Record<string, unknown>,
  ): Promise<void> {
    const call = { method: 'getUpdates', params: p };
    this.calls.push(call);
    this.emit('call', call);
    if (this.webhook.registration) {
      return reply(res, {
        ok: false,
        error_code: 409,
        description:
          "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
      });
    }
    if (this.#dropPolls > 0) {
      this.#dropPolls -= 1;
      req.socket.destroy();
      return;
    }
    if (this.#stallPolls > 0) {
      this.#stallPolls -= 1;
      return; // never answered; the socket stays open until close()
    }
    if (this.#holdPolls > 0) {
      this.#holdPolls -= 1;
      await once(this, 'release');
    }
    const offset = Number(p.offset ?? 0);
    while (this.#updates[0] && Number(this.#updates[0].update_id) < offset) this.#updates.shift();
    if (this.#updates.length === 0 && Number(p.timeout ?? 0) > 0) {
      const closed = once(req.socket, 'close').catch(() => {});
      let timer: NodeJS.Timeout | undefined;
      const expired = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, Number(p.timeout) * 1000);
      });
      await Promise.race([once(this, 'update'), expired, closed]);
      clearTimeout(timer);
    }
    if (req.socket.destroyed) return;
    reply(res, { ok: true, result: this.#updates.filter((u) => Number(u.update_id) >= offset) });
  }
}

function messageResult(sent: FakeSent): Record<string, unknown> {
  return {
    message_id: sent.messageId,
    date: Math.floor(Date.now() / 1000),
    chat: { id: sent.chatId, type: 'private' },
    from: FAKE_BOT,
    text: sent.text,
  };
}

function reply(res: ServerResponse, body: Record<string, unknown>): void {
  const code = body.ok ? 200 : Number(body.error_code ?? 500);
  res.writeHead(code, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
