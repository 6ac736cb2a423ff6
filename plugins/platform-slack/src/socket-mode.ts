/**
 * A Socket Mode connection that stays connected: opens a URL with `apps.connections.open`, acks
 * every envelope, reconnects when Slack says `disconnect` or the socket closes, and pings the
 * socket so a stalled one (no pong within `pongTimeoutMs`) is dropped and reopened.
 */
import { type ConnectionState, ConnectionTracker } from '@hermes/plugin-sdk';
import type { WebClient } from '@slack/web-api';
import WebSocket from 'ws';

/** One `events_api` envelope's payload (the Events API body). */
export interface SlackEventPayload {
  readonly event?: Readonly<Record<string, unknown>>;
}

/** What the connection reports to its owner. */
export interface SocketModeHooks {
  /** One Events API payload, after its envelope was acked. */
  onEvent(payload: SlackEventPayload): void;
  /** Diagnostics (no token ever in them). */
  log(level: 'info' | 'warn', message: string): void;
}

/** Timing of the connection; defaults suit production. */
export interface SocketModeTiming {
  readonly pingIntervalMs: number;
  readonly pongTimeoutMs: number;
  /** Delays between failed reconnect attempts (the last one repeats). */
  readonly backoffMs?: readonly number[];
}

const DEFAULT_BACKOFF = [0, 1_000, 2_000, 5_000, 10_000, 30_000];

/** A Socket Mode client on `ws`; see the module comment. */
export class SocketModeConnection {
  readonly #client: WebClient;
  readonly #hooks: SocketModeHooks;
  readonly #timing: SocketModeTiming;
  #socket: WebSocket | undefined;
  #stopped = false;
  #attempt = 0;
  #pingTimer: NodeJS.Timeout | undefined;
  #pongTimer: NodeJS.Timeout | undefined;
  #retryTimer: NodeJS.Timeout | undefined;
  /** Up at `hello`, reconnecting from a drop, a stall or a `disconnect` until the next `hello`. */
  readonly #tracker = new ConnectionTracker();

  /** @param client - A Web API client holding the app-level (`xapp-`) token. */
  constructor(client: WebClient, hooks: SocketModeHooks, timing: SocketModeTiming) {
    this.#client = client;
    this.#hooks = hooks;
    this.#timing = timing;
  }

  /** Times the link was lost and a new connection begun (drops, stalls, `disconnect`s). */
  get reconnects(): number {
    return this.#tracker.state().reconnects;
  }

  /** The link's state for `/health` (up, reconnects, the last reason). */
  state(): ConnectionState {
    return this.#tracker.state();
  }

  /** Whether a socket is open and has said hello. */
  get connected(): boolean {
    return this.#socket?.readyState === WebSocket.OPEN;
  }

  /** Opens the first connection; resolves at Slack's `hello`, rejects when that fails. */
  async start(): Promise<void> {
    this.#stopped = false;
    await this.#open();
  }

  /** Closes the connection for good; no event is reported afterwards. Idempotent. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#retryTimer);
    this.#drop();
    this.#tracker.markDown();
  }

  async #open(): Promise<void> {
    const opened = await this.#client.apps.connections.open({});
    if (!opened.url) throw new Error('apps.connections.open returned no url');
    if (this.#stopped) return;
    const socket = new WebSocket(opened.url);
    this.#socket = socket;
    await new Promise<void>((resolve, reject) => {
      const fail = (error: Error) => reject(error);
      socket.once('error', fail);
      socket.once('close', () => reject(new Error('the socket closed before hello')));
      socket.on('message', (data) => {
        const envelope = parseEnvelope(data.toString());
        if (envelope?.type === 'hello') {
          socket.off('error', fail);
          socket.removeAllListeners('close');
          resolve();
        }
        if (envelope) this.#onEnvelope(socket, envelope);
      });
    });
    this.#attempt = 0;
    this.#tracker.markUp();
    socket.on('close', () => this.#lost(socket, 'the socket closed'));
    socket.on('error', () => this.#lost(socket, 'the socket failed'));
    socket.on('pong', () => {
      clearTimeout(this.#pongTimer);
      this.#pongTimer = undefined;
    });
    this.#pingTimer = setInterval(() => this.#ping(socket), this.#timing.pingIntervalMs);
  }

  #onEnvelope(socket: WebSocket, envelope: Envelope): void {
    if (envelope.envelope_id) socket.send(JSON.stringify({ envelope_id: envelope.envelope_id }));
    if (envelope.type === 'disconnect') {
      this.#lost(socket, `Slack asked to reconnect (${safeReason(envelope.reason)})`);
    } else if (envelope.type === 'events_api' && envelope.payload && !this.#stopped) {
      this.#hooks.onEvent(envelope.payload);
    }
  }

  #ping(socket: WebSocket): void {
    if (socket !== this.#socket || this.#pongTimer !== undefined) return;
    if (socket.readyState !== WebSocket.OPEN) return; // closing: its close event reconnects
    socket.ping();
    this.#pongTimer = setTimeout(() => {
      this.#pongTimer = undefined;
      this.#lost(socket, `no pong within ${this.#timing.pongTimeoutMs} ms (stalled)`);
    }, this.#timing.pongTimeoutMs);
  }

  /** Drops `socket` (once) and schedules a new connection. */
  #lost(socket: WebSocket, why: string): void {
    if (socket !== this.#socket || this.#stopped) return;
    this.#drop();
    this.#tracker.markReconnecting(why);
    this.#hooks.log('warn', `slack: socket mode connection lost: ${why}; reconnecting`);
    this.#retry();
  }

  #retry(): void {
    const backoff = this.#timing.backoffMs ?? DEFAULT_BACKOFF;
    const delay = backoff[Math.min(this.#attempt, backoff.length - 1)] ?? 0;
    this.#attempt += 1;
    this.#retryTimer = setTimeout(() => {
      if (this.#stopped) return;
      this.#open().then(
        () => {
          this.#hooks.log('info', 'slack: socket mode reconnected');
        },
        (error: unknown) => {
          this.#drop();
          this.#hooks.log('warn', `slack: reconnect failed: ${describe(error)}`);
          if (!this.#stopped) this.#retry();
        },
      );
    }, delay);
  }

  #drop(): void {
    clearInterval(this.#pingTimer);
    clearTimeout(this.#pongTimer);
    this.#pongTimer = undefined;
    const socket = this.#socket;
    this.#socket = undefined;
    if (socket) {
      socket.removeAllListeners();
      socket.on('error', () => {});
      socket.terminate();
    }
  }
}

interface Envelope {
  readonly type?: string;
  readonly envelope_id?: string;
  readonly reason?: string;
  readonly payload?: SlackEventPayload;
}

function parseEnvelope(text: string): Envelope | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Envelope) : undefined;
  } catch {
    return undefined;
  }
}

/** Slack's `disconnect` reason (`refresh_requested`, `warning`) if it looks like one. */
function safeReason(reason: unknown): string {
  return typeof reason === 'string' && /^[a-z_]{1,64}$/.test(reason) ? reason : 'no reason';
}

/** A failure's code or class, never its message (which could quote a URL with a ticket). */
function describe(error: unknown): string {
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : '';
  const data = typeof error === 'object' && error !== null && 'data' in error ? error.data : '';
  const slack = typeof data === 'object' && data !== null && 'error' in data ? data.error : '';
  return String(slack || code || (error instanceof Error ? error.name : 'unknown'));
}
