/**
 * The Telegram `PlatformAdapter`: grammY's Bot API client, and updates from either our own
 * watched long-polling loop or our own webhook endpoint.
 */

import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Attachment,
  type ConnectionState,
  ConnectionTracker,
  type InboundHandler,
  type OutboundMessage,
  PlatformAdapter,
  type PlatformCapabilities,
  type PluginLogger,
  type SendTarget,
  type SentMessage,
} from '@hermes/plugin-sdk';
import { Api } from 'grammy';
import type { Message, Update, WebhookInfo } from 'grammy/types';
import { downloadFile, fileRefs } from './attachments.js';
import { type BotIdentity, toInbound } from './inbound.js';
import { renderMarkdownV2, stripMarkdownV2 } from './markdown-v2.js';
import { Poller } from './poller.js';
import type { TelegramSettings } from './settings.js';
import { splitMarkdownV2 } from './split-markdown-v2.js';
import {
  isEntityError,
  isNotModified,
  redactToken,
  retryAfterSeconds,
  toHermesError,
} from './telegram-errors.js';
import { webhookProblem } from './webhook-health.js';
import { WebhookServer } from './webhook-server.js';

/** Telegram's limit for one message's text, in UTF-16 code units. */
export const TELEGRAM_MAX_MESSAGE_LENGTH = 4096;

/** The longest flood-control wait the adapter sits out itself before one more try. */
export const MAX_RATE_LIMIT_WAIT_SECONDS = 5;

const silent: PluginLogger = { debug() {}, info() {}, warn() {}, error() {} };

/** Talks to one bot over the Bot API at `settings.apiRoot`. */
export class TelegramAdapter extends PlatformAdapter {
  readonly platform = 'telegram';
  readonly #settings: TelegramSettings;
  readonly #api: Api;
  readonly #log: PluginLogger;
  #poller: Poller | undefined;
  #webhook: WebhookServer | undefined;
  #webhookAddress: { host: string; port: number } | undefined;
  #webhookCheck: NodeJS.Timeout | undefined;
  #checking: Promise<unknown> | undefined;
  /** When `setWebhook` succeeded, and when the webhook last brought an update (ms). */
  #registeredAt = 0;
  #lastUpdateAt = 0;
  readonly #link = new ConnectionTracker();
  /** When the polling link went down (stall or failed poll); undefined while it is up. */
  #downSince: number | undefined;
  #onMessage: InboundHandler | undefined;
  #bot: BotIdentity | undefined;
  readonly #attachmentsDir: string;

  /**
   * @param attachmentsDir - Where downloaded files go (the plugin passes its storage folder).
   */
  constructor(
    settings: TelegramSettings,
    log: PluginLogger = silent,
    attachmentsDir: string = join(tmpdir(), 'hermes-telegram-attachments'),
  ) {
    super();
    this.#settings = settings;
    this.#log = log;
    this.#attachmentsDir = attachmentsDir;
    this.#api = new Api(settings.token, { apiRoot: settings.apiRoot });
  }

  /** Times the watchdog restarted the poller since `connect` (for health and the log). */
  get pollerRestarts(): number {
    return this.#poller?.restarts ?? 0;
  }

  /** The bot's identity from `getMe`, once connected. */
  get bot(): BotIdentity | undefined {
    return this.#bot;
  }

  /** The live link, for `/health`: up, and how often the poller was restarted or reconnected. */
  override connectionState(): ConnectionState {
    return this.#link.state();
  }

  /**
   * The webhook endpoint's bound address (webhook mode, once connected); `hermes-gateway run`
   * prints it as `telegram listening on http://host:port`.
   */
  get listening(): { host: string; port: number } | undefined {
    return this.#webhookAddress;
  }

  async connect(onMessage: InboundHandler): Promise<void> {
    if (this.#poller || this.#webhook) return;
    const me = await this.#call('getMe', () => this.#api.getMe());
    this.#bot = { id: me.id, username: me.username };
    this.#onMessage = onMessage;
    if (this.#settings.webhook) await this.#startWebhook();
    else await this.#startPolling();
    this.#link.markUp();
    this.#log.info('telegram connected', { bot: me.username, mode: this.#settings.mode });
  }

  async #startPolling(): Promise<void> {
    // Telegram refuses getUpdates (409) while a webhook is set, e.g. after a switch of mode.
    await this.#call('deleteWebhook', () => this.#api.deleteWebhook());
    const s = this.#settings;
    this.#poller = new Poller(
      this.#api,
      {
        timeoutSeconds: s.pollTimeoutSeconds,
        marginMs: s.watchdogMarginMs,
        retryBaseMs: s.retryBaseMs,
        retryMaxMs: s.retryMaxMs,
      },
      {
        onUpdates: (updates) => this.#dispatch(updates),
        onStall: (restarts, waitedMs) => {
          this.#log.warn('telegram poller stalled; restarting it', { restarts, waitedMs });
          this.#linkDown(`no getUpdates answer in ${waitedMs / 1000} s`);
        },
        onError: (error, retryInMs) => {
          const failure = toHermesError('getUpdates', error, s.token);
          this.#log.warn('telegram getUpdates failed; retrying', {
            error: failure.message,
            retryInMs,
          });
          if (this.#downSince === undefined) this.#linkDown(`getUpdates failed (${failure.code})`);
        },
        onAnswer: () => this.#linkUp(),
      },
    );
    this.#poller.start();
  }

  #linkDown(reason: string): void {
    this.#downSince ??= Date.now();
    this.#link.markReconnecting(reason);
  }

  #linkUp(): void {
    if (this.#downSince === undefined) return;
    const downMs = Date.now() - this.#downSince;
    this.#downSince = undefined;
    this.#link.markUp();
    const what = this.#settings.webhook ? 'webhook deliveries resumed' : 'poller reconnected';
    this.#log.info(`telegram ${what}`, { downMs });
  }

  async #startWebhook(): Promise<void> {
    const w = this.#settings.webhook;
    if (!w) return;
    const server = new WebhookServer({
      host: w.host,
      port: w.port,
      path: w.path,
      secret: w.secret,
      onUpdate: (update) => {
        // An update got through: whatever Telegram reported before, delivery works now.
        this.#lastUpdateAt = Date.now();
        this.#linkUp();
        return this.#dispatch([update]);
      },
      onRefused: (status, reason) =>
        this.#log.warn('telegram webhook refused a request', { status, reason }),
    });
    const address = await server.listen();
    this.#webhookAddress = { host: address.address, port: address.port };
    // The bound address goes in the message itself: with port 0 it is how an operator finds it.
    this.#log.info(`telegram webhook listening on ${address.address}:${address.port}${w.path}`);
    try {
      await this.#call('setWebhook', () =>
        this.#api.setWebhook(w.url, { secret_token: w.secret, allowed_updates: ['message'] }),
      );
    } catch (error) {
      await server.close();
      this.#webhookAddress = undefined;
      throw this.#redactSecret(error);
    }
    this.#webhook = server;
    this.#registeredAt = Date.now();
    if (w.checkMs > 0) {
      this.#webhookCheck = setInterval(() => this.#checkOnce(), w.checkMs);
      this.#webhookCheck.unref();
    }
  }

  /** One check at a time: a slow `getWebhookInfo` is not stacked up behind by the next tick. */
  #checkOnce(): void {
    this.#checking ??= this.checkWebhook().finally(() => {
      this.#checking = undefined;
    });
  }

  /**
   * Webhook mode: asks Telegram (`getWebhookInfo`) whether it can deliver to our webhook, and
   * marks the link down when it cannot — another URL is registered (someone else's `setWebhook`),
   * or Telegram's last delivery since we registered failed and no update has arrived since —
   * and up again when it can. Runs every `webhook_check_seconds`; resolves the reason it found,
   * or `undefined` when all is well (or there is nothing to check).
   */
  async checkWebhook(): Promise<string | undefined> {
    const w = this.#settings.webhook;
    if (!w || !this.#webhook) return undefined;
    let info: WebhookInfo;
    try {
      info = await this.#api.getWebhookInfo();
    } catch (error) {
      const failure = toHermesError('getWebhookInfo', error, this.#settings.token);
      this.#log.warn('telegram getWebhookInfo failed', { error: failure.message });
      return undefined;
    }
    const problem = webhookProblem(info, w.url, Math.max(this.#registeredAt, this.#lastUpdateAt));
    if (problem === undefined) {
      this.#linkUp();
      return undefined;
    }
    if (this.#downSince === undefined) {
      this.#log.warn('telegram webhook is not receiving updates', { reason: problem });
      this.#linkDown(problem);
    }
    return problem;
  }

  /** A refusal's text could echo the request; the webhook secret must not reach a log. */
  #redactSecret(error: unknown): unknown {
    const secret = this.#settings.webhook?.secret;
    if (!(error instanceof Error) || !secret || !error.message.includes(secret)) return error;
    error.message = error.message.split(secret).join('[SECRET]');
    return error;
  }

  async disconnect(): Promise<void> {
    const poller = this.#poller;
    const webhook = this.#webhook;
    this.#onMessage = undefined;
    this.#poller = undefined;
    this.#webhook = undefined;
    this.#webhookAddress = undefined;
    this.#downSince = undefined;
    clearInterval(this.#webhookCheck);
    this.#webhookCheck = undefined;
    this.#link.markDown();
    // The webhook stays registered with Telegram on purpose: it queues updates until we are back.
    await Promise.all([poller?.stop(), webhook?.close()]);
  }

  async #dispatch(updates: readonly Update[]): Promise<void> {
    for (const update of updates) {
      const handler = this.#onMessage;
      const bot = this.#bot;
      if (!handler || !bot) return;
      const inbound = toInbound(update, bot, Date.now());
      if (!inbound || !update.message) continue;
      const attachments = await this.#download(update.message);
      const message = attachments.length > 0 ? { ...inbound, attachments } : inbound;
      try {
        await handler(message);
      } catch (error) {
        this.#log.error('telegram message handler failed', {
          error: redactToken(
            error instanceof Error ? error.message : String(error),
            this.#settings.token,
          ),
        });
      }
    }
  }

  /** Downloads the message's files; one that fails is logged (token-free) and left out. */
  async #download(message: Message): Promise<Attachment[]> {
    const out: Attachment[] = [];
    const fileRoot = `${this.#settings.apiRoot}/file/bot${this.#settings.token}`;
    for (const ref of fileRefs(message)) {
      try {
        out.push(await downloadFile(this.#api, fileRoot, ref, this.#attachmentsDir));
      } catch (error) {
        this.#log.warn('telegram attachment not downloaded', {
          kind: ref.kind,
          error: toHermesError('getFile', error, this.#settings.token).message,
        });
      }
    }
    return out;
  }

  capabilities(_chatId?: string): PlatformCapabilities {
    return {
      maxMessageLength: TELEGRAM_MAX_MESSAGE_LENGTH,
      canEdit: true,
      supportsDrafts: false,
      hasOwnAccessPolicy: false,
      supportsThreads: true,
      supportsMarkdown: true,
    };
  }

  override renderMarkdown(text: string): string {
    return renderMarkdownV2(text);
  }

  /** Splits at 4,096 with every part's MarkdownV2 entities closed and reopened in the next. */
  override splitMessage(text: string, chatId?: string): string[] {
    return splitMarkdownV2(text, this.capabilities(chatId).maxMessageLength, (part) =>
      this.messageLength(part),
    );
  }

  async send(target: SendTarget, message: OutboundMessage): Promise<SentMessage> {
    const markdown = message.format !== 'plain';
    const extra = {
      ...(target.threadId ? { message_thread_id: Number(target.threadId) } : {}),
      ...(target.replyTo
        ? {
            reply_parameters: {
              message_id: Number(target.replyTo),
              allow_sending_without_reply: true,
            },
          }
        : {}),
    };
    const sent = await this.#withPlainRetry(
      'sendMessage',
      markdown,
      message.text,
      (text, parseMode) =>
        this.#api.sendMessage(target.chatId, text, {
          ...extra,
          ...(parseMode ? { parse_mode: parseMode } : {}),
        }),
    );
    return { messageId: String(sent.message_id) };
  }

  override async edit(target: SendTarget, messageId: string, text: string): Promise<boolean> {
    try {
      await this.#withPlainRetry('editMessageText', true, text, (body, parseMode) =>
        this.#api.editMessageText(
          target.chatId,
          Number(messageId),
          body,
          parseMode ? { parse_mode: parseMode } : {},
        ),
      );
      return true;
    } catch (error) {
      if (error instanceof Error && 'cause' in error && isNotModified(error.cause)) return true;
      throw error;
    }
  }

  override async sendTyping(target: SendTarget): Promise<void> {
    await this.#api
      .sendChatAction(
        target.chatId,
        'typing',
        target.threadId ? { message_thread_id: Number(target.threadId) } : {},
      )
      .catch(() => {});
  }

  /** Sends as MarkdownV2; when Telegram rejects the entities, once more as plain text. */
  async #withPlainRetry<T>(
    method: string,
    markdown: boolean,
    text: string,
    call: (text: string, parseMode: 'MarkdownV2' | undefined) => Promise<T>,
  ): Promise<T> {
    try {
      return await this.#afterRateLimit(method, () =>
        call(text, markdown ? 'MarkdownV2' : undefined),
      );
    } catch (error) {
      if (markdown && isEntityError(error)) {
        this.#log.warn(`telegram rejected MarkdownV2 in ${method}; sending plain text`);
        return this.#call(method, () => call(stripMarkdownV2(text), undefined));
      }
      throw this.#wrap(method, error);
    }
  }

  /**
   * Telegram's flood control answers 429 with `retry_after` seconds (edits of a streamed answer
   * are the usual cause). A short wait is honoured once, here; a longer one is the gateway's
   * retry to schedule, so the error goes up.
   */
  async #afterRateLimit<T>(method: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      const wait = retryAfterSeconds(error);
      if (wait === undefined || wait > MAX_RATE_LIMIT_WAIT_SECONDS) throw error;
      this.#log.warn(`telegram rate-limited ${method}; waiting before one more try`, {
        retryAfterSeconds: wait,
      });
      await new Promise((resolve) => setTimeout(resolve, wait * 1000));
      return call();
    }
  }

  #wrap(method: string, error: unknown): Error {
    const wrapped = toHermesError(method, error, this.#settings.token);
    Object.defineProperty(wrapped, 'cause', { value: error, enumerable: false });
    return wrapped;
  }

  async #call<T>(method: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw this.#wrap(method, error);
    }
  }
}
