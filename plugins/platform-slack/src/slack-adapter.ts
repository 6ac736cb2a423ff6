/** The Slack platform adapter: Socket Mode in, Web API out, replies in the message's thread. */
import {
  type ConnectionState,
  type InboundHandler,
  type InboundMessage,
  type OutboundMessage,
  PlatformAdapter,
  type PlatformCapabilities,
  type PluginLogger,
  type SendTarget,
  type SentMessage,
} from '@hermes/plugin-sdk';
import { WebClient } from '@slack/web-api';
import { renderMrkdwn } from './mrkdwn.js';
import type { SlackSettings } from './settings.js';
import { toHermesError } from './slack-errors.js';
import { toInbound } from './slack-event.js';
import { type SlackEventPayload, SocketModeConnection } from './socket-mode.js';

/**
 * Slack's limit for a message's `text`, in characters. Slack truncates past 40,000 and advises
 * 4,000; longer answers are split.
 */
export const SLACK_MAX_MESSAGE_LENGTH = 4_000;

const CAPABILITIES: PlatformCapabilities = Object.freeze({
  maxMessageLength: SLACK_MAX_MESSAGE_LENGTH,
  canEdit: true,
  supportsDrafts: false,
  hasOwnAccessPolicy: false,
  supportsThreads: true,
  supportsMarkdown: true,
});

/** Web API retries for a transient failure (network, 5xx, rate limit), with backoff. */
const RETRY = { retries: 3, factor: 2, minTimeout: 200, maxTimeout: 2_000 };

/** Options beyond the settings: where diagnostics go. */
export interface SlackAdapterOptions {
  readonly logger?: PluginLogger;
}

/** The `slack` platform; see the package README for setup and settings. */
export class SlackAdapter extends PlatformAdapter {
  readonly platform = 'slack';
  readonly #web: WebClient;
  readonly #socket: SocketModeConnection;
  readonly #logger: PluginLogger | undefined;
  #onMessage: InboundHandler | undefined;
  #botUserId = '';
  /** `channel:ts` of recent messages: `message` and `app_mention` both report a mention. */
  readonly #seen = new Set<string>();

  constructor(settings: SlackSettings, options: SlackAdapterOptions = {}) {
    super();
    this.#logger = options.logger;
    const common = { slackApiUrl: settings.apiUrl, retryConfig: RETRY, logger: quietLogger() };
    this.#web = new WebClient(settings.botToken, common);
    const appClient = new WebClient(settings.appToken, common);
    this.#socket = new SocketModeConnection(
      appClient,
      {
        onEvent: (payload) => this.#onEvent(payload),
        log: (level, message) => this.#logger?.[level](message),
      },
      { pingIntervalMs: settings.pingIntervalMs, pongTimeoutMs: settings.pongTimeoutMs },
    );
  }

  /** Times Socket Mode reopened its connection (drops, stalls, refreshes). */
  get reconnects(): number {
    return this.#socket.reconnects;
  }

  /** Whether the Socket Mode connection is open now. */
  get connected(): boolean {
    return this.#socket.connected;
  }

  /** Up at Slack's `hello`; each drop, stall or `disconnect` counts a reconnect (for `/health`). */
  override connectionState(): ConnectionState {
    return this.#socket.state();
  }

  async connect(onMessage: InboundHandler): Promise<void> {
    let auth: Awaited<ReturnType<WebClient['auth']['test']>>;
    try {
      auth = await this.#web.auth.test();
    } catch (error) {
      throw toHermesError('auth.test', error);
    }
    this.#botUserId = auth.user_id ?? '';
    this.#onMessage = onMessage;
    try {
      await this.#socket.start();
    } catch (error) {
      this.#onMessage = undefined;
      this.#socket.stop();
      throw toHermesError('apps.connections.open', error);
    }
  }

  async disconnect(): Promise<void> {
    this.#onMessage = undefined;
    this.#socket.stop();
  }

  async send(target: SendTarget, message: OutboundMessage): Promise<SentMessage> {
    try {
      const sent = await this.#web.chat.postMessage({
        channel: target.chatId,
        text: message.text,
        mrkdwn: message.format !== 'plain',
        ...(target.threadId ? { thread_ts: target.threadId } : {}),
      });
      return { messageId: String(sent.ts ?? '') };
    } catch (error) {
      throw toHermesError('chat.postMessage', error);
    }
  }

  override async edit(target: SendTarget, messageId: string, text: string): Promise<boolean> {
    try {
      await this.#web.chat.update({ channel: target.chatId, ts: messageId, text });
      return true;
    } catch (error) {
      throw toHermesError('chat.update', error);
    }
  }

  capabilities(_chatId?: string): PlatformCapabilities {
    return CAPABILITIES;
  }

  override renderMarkdown(text: string): string {
    return renderMrkdwn(text);
  }

  #onEvent(payload: SlackEventPayload): void {
    const handler = this.#onMessage;
    const inbound = toInbound(payload.event, this.#botUserId);
    if (!handler || !inbound) return;
    const key = `${inbound.chatId}:${inbound.messageId}`;
    if (this.#seen.has(key)) return;
    this.#seen.add(key);
    if (this.#seen.size > 1_000) this.#seen.delete(this.#seen.values().next().value as string);
    void this.#deliver(handler, inbound);
  }

  async #deliver(handler: InboundHandler, inbound: InboundMessage): Promise<void> {
    try {
      await handler(inbound);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      this.#logger?.warn(`slack: the handler failed for a message: ${why}`);
    }
  }
}

/** `@slack/web-api` logs retries to the console by default; the adapter reports its own. */
function quietLogger() {
  const none = () => {};
  return {
    debug: none,
    info: none,
    warn: none,
    error: none,
    setLevel: none,
    getLevel: () => 'error' as never,
    setName: none,
  };
}
