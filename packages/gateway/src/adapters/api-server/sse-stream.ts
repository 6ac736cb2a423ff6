/** Server-sent events on one HTTP response: opened once, written frame by frame, kept alive. */
import type { ServerResponse } from 'node:http';
import { BASE_HEADERS } from './http-io.js';

/** A comment line this often keeps proxies from closing a quiet stream. */
const KEEPALIVE_MS = 15_000;

/** The headers real OpenAI streams carry, plus ours. */
const SSE_HEADERS: Readonly<Record<string, string>> = {
  ...BASE_HEADERS,
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  // Tells nginx not to buffer the stream.
  'x-accel-buffering': 'no',
};

/** One event stream. Writes after the client went away are dropped silently. */
export class SseStream {
  readonly #res: ServerResponse;
  #keepalive: NodeJS.Timeout | undefined;
  #ended = false;
  #opened = false;
  #wrote = false;

  constructor(res: ServerResponse) {
    this.#res = res;
    res.once('close', () => this.#stopKeepalive());
  }

  /** Whether the status and headers went out. */
  get opened(): boolean {
    return this.#opened;
  }

  /** Whether nothing more can be written (ended, or the client went away). */
  get closed(): boolean {
    return this.#ended || this.#res.destroyed || this.#res.writableEnded;
  }

  /**
   * Sends status 200 and the stream headers (once). They leave with the first frame written in
   * the same tick (one write instead of two), or on their own at the next tick.
   */
  open(headers: Readonly<Record<string, string>> = {}): void {
    if (this.#opened || this.closed) return;
    this.#opened = true;
    this.#res.writeHead(200, { ...SSE_HEADERS, ...headers });
    process.nextTick(() => {
      if (!this.closed && !this.#wrote) this.#res.flushHeaders();
    });
    this.#keepalive = setInterval(() => this.#write(': keepalive\n\n'), KEEPALIVE_MS);
    this.#keepalive.unref();
  }

  /**
   * Writes one frame: `data` is sent as JSON unless it is a string (`[DONE]`); `event` names it
   * (absent: a plain `message`); `id` lets a client resume with `Last-Event-ID`.
   */
  send(data: unknown, event?: string, id?: number): void {
    if (this.closed || !this.#opened) return;
    const json = typeof data === 'string' ? data : JSON.stringify(data);
    const head =
      (id === undefined ? '' : `id: ${id}\n`) + (event === undefined ? '' : `event: ${event}\n`);
    this.#write(`${head}data: ${json}\n\n`);
  }

  /** Ends the stream. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#stopKeepalive();
    if (!this.#res.destroyed && !this.#res.writableEnded) this.#res.end();
  }

  #write(text: string): void {
    if (this.closed || !this.#opened) return;
    this.#wrote = true;
    this.#res.write(text);
  }

  #stopKeepalive(): void {
    if (this.#keepalive) clearInterval(this.#keepalive);
    this.#keepalive = undefined;
  }
}
