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

  constructor(res: ServerResponse) {
    this.#res = res;
    res.once('close', () => this.#stopKeepalive());
  }

  /** Whether the status and headers went out. */
  get opened(): boolean {
    return this.#res.headersSent;
  }

  /** Whether nothing more can be written (ended, or the client went away). */
  get closed(): boolean {
    return this.#ended || this.#res.destroyed || this.#res.writableEnded;
  }

  /** Sends status 200 and the stream headers (once). */
  open(headers: Readonly<Record<string, string>> = {}): void {
    if (this.#res.headersSent || this.closed) return;
    this.#res.writeHead(200, { ...SSE_HEADERS, ...headers });
    this.#res.flushHeaders();
    this.#keepalive = setInterval(() => this.#write(': keepalive\n\n'), KEEPALIVE_MS);
    this.#keepalive.unref();
  }

  /**
   * Writes one frame: `data` is sent as JSON unless it is a string (`[DONE]`); `event` names it
   * (absent: a plain `message`); `id` lets a client resume with `Last-Event-ID`.
   */
  send(data: unknown, event?: string, id?: number): void {
    const lines: string[] = [];
    if (id !== undefined) lines.push(`id: ${id}`);
    if (event !== undefined) lines.push(`event: ${event}`);
    lines.push(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}`);
    this.#write(`${lines.join('\n')}\n\n`);
  }

  /** Ends the stream. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#stopKeepalive();
    if (!this.#res.destroyed && !this.#res.writableEnded) this.#res.end();
  }

  #write(text: string): void {
    if (this.closed || !this.#res.headersSent) return;
    this.#res.write(text);
  }

  #stopKeepalive(): void {
    if (this.#keepalive) clearInterval(this.#keepalive);
    this.#keepalive = undefined;
  }
}
