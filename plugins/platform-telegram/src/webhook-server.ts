/**
 * The HTTP endpoint Telegram posts updates to in webhook mode. Telegram signs nothing: the only
 * proof a request comes from Telegram is the `X-Telegram-Bot-Api-Secret-Token` header carrying
 * the secret given to `setWebhook`, so it is checked (in constant time) before the body is read.
 * Telegram waits for our answer and retries on anything but a 2xx, so the update is acknowledged
 * at once and handled afterwards; a retry of one already accepted is acknowledged and dropped.
 */
import { timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Update } from 'grammy/types';
import { z } from 'zod';

/** The largest update body accepted; Telegram's updates are a few KB. */
export const MAX_WEBHOOK_BODY_BYTES = 1024 * 1024;

/** How many recent `update_id`s are remembered to drop Telegram's retries. */
const DEDUPE_WINDOW = 1024;

/** Enough of an update to route it; the rest passes through to the update handler. */
const UpdateSchema = z.looseObject({ update_id: z.number().int().nonnegative() });

/** Where and how the endpoint listens. */
export interface WebhookServerOptions {
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly path: string;
  readonly secret: string;
  /** Handles one accepted update; awaited before the next one (updates keep their order). */
  readonly onUpdate: (update: Update) => Promise<void>;
  /** A request was refused (status and why; never the secret). */
  readonly onRefused?: (status: number, reason: string) => void;
  readonly maxBodyBytes?: number;
}

class TooLarge extends Error {}

/** The webhook endpoint; `listen` once, `close` any number of times. */
export class WebhookServer {
  readonly #options: WebhookServerOptions;
  readonly #server: Server;
  readonly #secret: Buffer;
  readonly #seen = new Set<number>();
  /** The chain of accepted updates being handled, in arrival order. */
  #queue: Promise<void> = Promise.resolve();

  constructor(options: WebhookServerOptions) {
    this.#options = options;
    this.#secret = Buffer.from(options.secret, 'utf8');
    this.#server = createServer((req, res) => void this.#handle(req, res));
  }

  /** Binds the port; resolves with the address actually bound. */
  async listen(): Promise<AddressInfo> {
    const { host, port } = this.#options;
    const failed = once(this.#server, 'error').then(([error]) => {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      throw new Error(`telegram webhook cannot listen on ${host}:${port} (${code})`);
    });
    this.#server.listen(port, host);
    await Promise.race([once(this.#server, 'listening'), failed]);
    return this.#server.address() as AddressInfo;
  }

  /** Stops listening, ends open connections and waits for the updates already accepted. */
  async close(): Promise<void> {
    if (this.#server.listening) {
      const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
      this.#server.closeAllConnections();
      await closed;
    }
    await this.#queue;
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '').split('?')[0];
    if (path !== this.#options.path) return this.#refuse(res, 404, 'unknown path');
    if (req.method !== 'POST') return this.#refuse(res, 405, 'not a POST');
    if (!this.#secretMatches(req.headers['x-telegram-bot-api-secret-token'])) {
      return this.#refuse(res, 401, 'missing or wrong secret token');
    }
    let body: string;
    try {
      body = await this.#readBody(req);
    } catch (error) {
      if (error instanceof TooLarge) return this.#refuse(res, 413, 'body too large');
      return this.#refuse(res, 400, 'body not read');
    }
    const update = parseUpdate(body);
    if (!update) return this.#refuse(res, 400, 'not a Telegram update');
    res.writeHead(200).end();
    if (this.#remember(update.update_id)) this.#enqueue(update);
  }

  #secretMatches(header: string | string[] | undefined): boolean {
    if (typeof header !== 'string') return false;
    const given = Buffer.from(header, 'utf8');
    // timingSafeEqual needs equal lengths; the length itself is not the secret.
    return given.length === this.#secret.length && timingSafeEqual(given, this.#secret);
  }

  async #readBody(req: IncomingMessage): Promise<string> {
    const max = this.#options.maxBodyBytes ?? MAX_WEBHOOK_BODY_BYTES;
    if (Number(req.headers['content-length'] ?? 0) > max) throw new TooLarge();
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > max) throw new TooLarge();
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  /** True the first time `id` is seen; the window forgets the oldest ids. */
  #remember(id: number): boolean {
    if (this.#seen.has(id)) return false;
    this.#seen.add(id);
    if (this.#seen.size > DEDUPE_WINDOW) {
      const oldest = this.#seen.values().next().value;
      if (oldest !== undefined) this.#seen.delete(oldest);
    }
    return true;
  }

  #enqueue(update: Update): void {
    // The handler logs its own failures; one bad update must not stop the ones behind it.
    this.#queue = this.#queue.then(() => this.#options.onUpdate(update)).catch(() => {});
  }

  #refuse(res: ServerResponse, status: number, reason: string): void {
    this.#options.onRefused?.(status, reason);
    // The request body is not read; closing the connection keeps a sender from pushing it anyway.
    res.writeHead(status, { connection: 'close' }).end();
  }
}

function parseUpdate(body: string): Update | undefined {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return undefined;
  }
  const parsed = UpdateSchema.safeParse(json);
  return parsed.success ? (parsed.data as unknown as Update) : undefined;
}
