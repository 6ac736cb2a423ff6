/**
 * The Slack platform adapter: Socket Mode or HTTP events in, Web API out, replies in the
 * message's thread, shared files downloaded as attachments.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Attachment,
  type ConnectionState,
  HermesError,
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
import { HttpEventsServer } from './http-events.js';
import { renderMrkdwn } from './mrkdwn.js';
import type { SlackSettings } from './settings.js';
import { toHermesError } from './slack-errors.js';
import { toInbound } from './slack-event.js';
import { type DownloadOptions, downloadSlackFile, FileSkipped, fileRefs } from './slack-files.js';
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

/** Options beyond the settings: where diagnostics and downloaded files go. */
export interface SlackAdapterOptions {
  readonly logger?: PluginLogger;
  /** Where shared files are downloaded (the plugin passes its storage folder). */
  readonly attachmentsDir?: string;
}

/** How events arrive: a Socket Mode connection or the HTTP events endpoint. */
type InboundLink =
  | { readonly mode: 'socket'; readonly link: SocketModeConnection }
  | { readonly mode: 'http'; readonly link: HttpEventsServer };

/** The `slack` platform; see the package README for setup and settings. */
export class SlackAdapter extends PlatformAdapter {
  readonly platform = 'slack';
  readonly #web: WebClient;
  readonly #inbound: InboundLink;
  readonly #logger: PluginLogger | undefined;
  readonly #files: DownloadOptions;
  #onMessage: InboundHandler | undefined;
  #botUserId = '';
  /** `channel:ts` of recent messages: `message` and `app_mention` both report a mention. */
  readonly #seen = new Set<string>();

  constructor(settings: SlackSettings, options: SlackAdapterOptions = {}) {
    super();
    this.#logger = options.logger;
    const common = { slackApiUrl: settings.apiUrl, retryConfig: RETRY, logger: quietLogger() };
    this.#web = new WebClient(settings.botToken, common);
    this.#files = {
      botToken: settings.botToken,
      dir: options.attachmentsDir ?? join(tmpdir(), 'hermes-slack-attachments'),
      maxBytes: settings.maxFileBytes,
      extraOrigins: [new URL(settings.apiUrl).origin],
    };
    const hooks = {
      onEvent: (payload: SlackEventPayload) => this.#onEvent(payload),
      log: (level: 'info' | 'warn', message: string) => this.#logger?.[level](message),
    };
    this.#inbound =
      settings.mode === 'http'
        ? { mode: 'http', link: new HttpEventsServer(settings, hooks) }
        : {
            mode: 'socket',
            link: new SocketModeConnection(new WebClient(settings.appToken, common), hooks, {
              pingIntervalMs: settings.pingIntervalMs,
              pongTimeoutMs: settings.pongTimeoutMs,
            }),
          };
  }

  /** Times the link was lost and re-established (Socket Mode drops, stalls, refreshes). */
  get reconnects(): number {
    return this.connectionState().reconnects;
  }

  /** Whether events can arrive now: the socket is open, or the HTTP endpoint listens. */
  get connected(): boolean {
    return this.connectionState().up;
  }

  /**
   * In HTTP mode, the address the events endpoint listens on (the gateway prints it); in Socket
   * Mode, nothing.
   */
  get listening(): { host: string; port: number } | undefined {
    return this.#inbound.mode === 'http' ? this.#inbound.link.address : undefined;
  }

  /**
   * For `/health`: up from Slack's `hello` (or while the HTTP endpoint listens); each Socket
   * Mode drop, stall or `disconnect` envelope counts one reconnect, with its reason.
   */
  override connectionState(): ConnectionState {
    return this.#inbound.link.state();
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
      await this.#inbound.link.start();
    } catch (error) {
      this.#onMessage = undefined;
      await this.#inbound.link.stop();
      throw this.#startError(error);
    }
  }

  async disconnect(): Promise<void> {
    this.#onMessage = undefined;
    await this.#inbound.link.stop();
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

  #startError(error: unknown): HermesError {
    if (this.#inbound.mode === 'socket') return toHermesError('apps.connections.open', error);
    const { host, port } = this.#inbound.link.options;
    const code = (error as { code?: unknown } | undefined)?.code;
    return new HermesError(
      'slack.http_listen_failed',
      `Slack events endpoint could not listen on ${host}:${port} (${typeof code === 'string' ? code : 'error'})`,
    );
  }

  #onEvent(payload: SlackEventPayload): void {
    const handler = this.#onMessage;
    const inbound = toInbound(payload.event, this.#botUserId);
    if (!handler || !inbound || !payload.event) return;
    const key = `${inbound.chatId}:${inbound.messageId}`;
    if (this.#seen.has(key)) return;
    this.#seen.add(key);
    if (this.#seen.size > 1_000) this.#seen.delete(this.#seen.values().next().value as string);
    void this.#deliver(handler, inbound, payload.event);
  }

  async #deliver(
    handler: InboundHandler,
    inbound: InboundMessage,
    event: Readonly<Record<string, unknown>>,
  ): Promise<void> {
    try {
      const message = await this.#withFiles(inbound, event);
      // A download can outlast `disconnect`: a disconnected adapter hands nothing on.
      if (this.#onMessage !== handler) {
        this.#logger?.info('slack: a message finished downloading after disconnect; dropped');
        return;
      }
      await handler(message);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      this.#logger?.warn(`slack: the handler failed for a message: ${why}`);
    }
  }

  /** The message with its files downloaded; a file that is skipped becomes a note in the text. */
  async #withFiles(
    inbound: InboundMessage,
    event: Readonly<Record<string, unknown>>,
  ): Promise<InboundMessage> {
    const refs = fileRefs(event);
    if (refs.length === 0) return inbound;
    const attachments: Attachment[] = [];
    const notes: string[] = [];
    for (const ref of refs) {
      try {
        attachments.push(await downloadSlackFile(ref, this.#files));
      } catch (error) {
        const skipped = error instanceof FileSkipped ? error : undefined;
        notes.push(skipped?.note ?? `[file "${ref.name ?? ref.id}" could not be downloaded]`);
        const why = skipped?.message ?? (error instanceof Error ? error.name : 'error');
        this.#logger?.warn(`slack: file ${ref.id} not attached: ${why}`);
      }
    }
    const text = [inbound.text, ...notes].filter((part) => part.length > 0).join('\n');
    return { ...inbound, text, ...(attachments.length > 0 ? { attachments } : {}) };
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
