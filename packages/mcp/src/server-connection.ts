/**
 * One configured MCP server for the lifetime of the hub: its state, its open session, its tool
 * list (kept fresh on `notifications/tools/list_changed`), and reconnection with exponential
 * backoff when the session drops.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  McpError,
  type Tool,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig } from './config-schema.js';
import {
  connectClient,
  describe,
  type McpTransportKind,
  type OpenedClient,
  transportKindOf,
} from './connect-client.js';
import { isToolExposed } from './tool-filter.js';

/** Where a server stands. */
export type McpServerState = 'disabled' | 'connecting' | 'connected' | 'failed' | 'reconnecting';

/** Where the hub's log lines go. */
export interface McpLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** What a connection needs from the hub. */
export interface ServerConnectionOptions {
  readonly name: string;
  readonly config: McpServerConfig;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly logger: McpLogger;
  readonly maxReconnects: number;
  readonly reconnectBaseMs: number;
  /** Called whenever the exposed tools (or resource / prompt support) may have changed. */
  readonly onChange: () => void;
}

/** The longest wait between two reconnect attempts. */
const MAX_BACKOFF_MS = 30_000;

/** Thrown when a request is made while the server is not connected. */
export class McpServerUnavailableError extends Error {
  override readonly name = 'McpServerUnavailableError';
}

/** One server and its session. */
export class McpServerConnection {
  readonly name: string;
  readonly config: McpServerConfig;
  state: McpServerState;
  kind: McpTransportKind;
  error: string | undefined;
  connectMs: number | undefined;
  /** The server's tools that pass `tools.include` / `tools.exclude`, in the server's order. */
  tools: readonly Tool[] = [];
  hasResources = false;
  hasPrompts = false;

  readonly #options: ServerConnectionOptions;
  readonly #abort = new AbortController();
  #opened: OpenedClient | undefined;
  #reconnecting: Promise<void> | undefined;

  constructor(options: ServerConnectionOptions) {
    this.#options = options;
    this.name = options.name;
    this.config = options.config;
    this.kind = transportKindOf(options.config);
    this.state = options.config.enabled ? 'connecting' : 'disabled';
  }

  /** Connects once. Never rejects: a failure sets state `failed` and is logged once. */
  async start(): Promise<void> {
    if (!this.config.enabled) return;
    const started = performance.now();
    try {
      await this.#open();
      this.connectMs = Math.round(performance.now() - started);
      this.#setConnected();
      this.#options.logger.info(
        `MCP server "${this.name}" connected over ${this.kind} in ${this.connectMs} ms with ${this.tools.length} tools`,
      );
    } catch (error) {
      if (this.#abort.signal.aborted) return;
      this.state = 'failed';
      this.error = describe(error);
      this.#options.logger.warn(`MCP server "${this.name}" failed to connect: ${this.error}`);
    }
  }

  #setConnected(): void {
    this.state = 'connected';
    this.error = undefined;
    this.#options.onChange();
  }

  async #open(): Promise<void> {
    const opened = await connectClient(this.config, {
      env: this.#options.env,
      signal: this.#abort.signal,
    });
    if (this.#abort.signal.aborted) {
      await opened.client.close().catch(() => undefined);
      throw new Error('closed while connecting');
    }
    this.kind = opened.kind;
    const caps = opened.client.getServerCapabilities() ?? {};
    this.hasResources = caps.resources !== undefined;
    this.hasPrompts = caps.prompts !== undefined;
    opened.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      void this.#refreshTools(opened);
    });
    try {
      this.tools = caps.tools ? await this.#listTools(opened.client) : [];
    } catch (error) {
      await opened.client.close().catch(() => undefined);
      throw error;
    }
    this.#opened = opened;
    opened.client.onclose = () => this.#onClosed(opened);
  }

  async #listTools(client: Client): Promise<Tool[]> {
    const all: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor }, {
        timeout: this.config.connect_timeout * 1000,
        signal: this.#abort.signal,
      });
      all.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return all.filter((tool) => isToolExposed(tool.name, this.config.tools));
  }

  async #refreshTools(opened: OpenedClient): Promise<void> {
    try {
      const tools = await this.#listTools(opened.client);
      if (this.#opened !== opened) return;
      this.tools = tools;
      this.#options.onChange();
    } catch (error) {
      this.#options.logger.warn(
        `MCP server "${this.name}" announced new tools, but listing them failed: ${describe(error)}`,
      );
    }
  }

  #onClosed(opened: OpenedClient): void {
    if (this.#opened !== opened || this.#abort.signal.aborted) return;
    this.#opened = undefined;
    this.state = 'reconnecting';
    this.error = 'the connection was lost';
    this.#options.logger.warn(`MCP server "${this.name}" disconnected; reconnecting`);
    this.#reconnecting = this.#reconnect().finally(() => {
      this.#reconnecting = undefined;
    });
  }

  async #reconnect(): Promise<void> {
    const { maxReconnects, reconnectBaseMs } = this.#options;
    let lastError = 'no attempt made';
    for (let attempt = 1; attempt <= maxReconnects; attempt++) {
      const delay = Math.min(reconnectBaseMs * 2 ** (attempt - 1), MAX_BACKOFF_MS);
      await abortableSleep(delay, this.#abort.signal);
      if (this.#abort.signal.aborted) return;
      try {
        await this.#open();
        this.#setConnected();
        this.#options.logger.info(`MCP server "${this.name}" reconnected (attempt ${attempt})`);
        return;
      } catch (error) {
        if (this.#abort.signal.aborted) return;
        lastError = describe(error);
      }
    }
    this.state = 'failed';
    this.error = `disconnected, and ${maxReconnects} reconnect attempts failed (last: ${lastError})`;
    this.tools = [];
    this.#options.logger.error(`MCP server "${this.name}" ${this.error}`);
    this.#options.onChange();
  }

  /**
   * The live client, waiting up to `waitMs` for a reconnection in progress.
   *
   * @throws McpServerUnavailableError when the server is not (or not again) connected.
   */
  async client(waitMs: number, signal?: AbortSignal): Promise<Client> {
    if (this.#reconnecting) {
      await Promise.race([this.#reconnecting, abortableSleep(waitMs, signal)]);
    }
    if (this.state === 'connected' && this.#opened) return this.#opened.client;
    const why = this.error ? `: ${this.error}` : '';
    throw new McpServerUnavailableError(
      `MCP server "${this.name}" is not connected (${this.state}${why})`,
    );
  }

  /**
   * Called after a request failed. Over HTTP / SSE a failure that is not an MCP error answer (a
   * refused connection, an unknown session after a server restart) means the session is gone,
   * but nothing else would notice: close it, which starts the reconnection.
   *
   * @returns whether a reconnection is now under way.
   */
  noteRequestFailure(error: unknown): boolean {
    const opened = this.#opened;
    if (
      this.kind === 'stdio' ||
      error instanceof McpError ||
      this.state !== 'connected' ||
      !opened
    ) {
      return this.state === 'reconnecting';
    }
    void opened.client.close().catch(() => undefined);
    // close() reports the drop synchronously, so the state has moved on by now.
    return (this.state as McpServerState) === 'reconnecting';
  }

  /** Ends the session and stops any reconnection. */
  async close(): Promise<void> {
    this.#abort.abort();
    const opened = this.#opened;
    this.#opened = undefined;
    if (this.state !== 'disabled') this.state = 'failed';
    this.error = 'closed';
    if (opened) await opened.client.close().catch(() => undefined);
  }
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
