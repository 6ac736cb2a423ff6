/**
 * The Discord `PlatformAdapter`: messages arrive over the gateway (`GatewayConnection`), replies
 * go out through REST (`@discordjs/rest`, which handles rate limits and retries transient
 * failures with backoff). 2,000 characters a message; replies stream by editing.
 */
import { REST } from '@discordjs/rest';
import {
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
import { type DispatchEvent, GatewayConnection } from './gateway-connection.js';
import { type DiscordMessagePayload, toInbound } from './inbound.js';
import { toHermesError } from './rest-errors.js';
import type { DiscordSettings } from './settings.js';

/** Discord's limit on a message's content, in characters. */
export const DISCORD_MAX_MESSAGE_LENGTH = 2_000;

const silent: PluginLogger = { debug() {}, info() {}, warn() {}, error() {} };

/** Talks to Discord as one bot. */
export class DiscordAdapter extends PlatformAdapter {
  readonly platform = 'discord';
  #rest: REST;
  #connection: GatewayConnection | undefined;
  #handler: InboundHandler | undefined;
  #botId: string | undefined;
  #link = new ConnectionTracker();

  constructor(
    private readonly settings: DiscordSettings,
    private readonly log: PluginLogger = silent,
  ) {
    super();
    this.#rest = new REST({
      api: settings.apiUrl,
      version: '10',
      retries: settings.restRetries,
    }).setToken(settings.token);
  }

  /** How often the watchdog has restarted the gateway connection (for health and tests). */
  get watchdogRestarts(): number {
    return this.#connection?.restarts ?? 0;
  }

  /** The live link for `/health`: up, and how often it was re-established since `connect`. */
  override connectionState(): ConnectionState {
    return this.#link.state();
  }

  capabilities(): PlatformCapabilities {
    return {
      maxMessageLength: DISCORD_MAX_MESSAGE_LENGTH,
      canEdit: true,
      supportsDrafts: false,
      hasOwnAccessPolicy: false,
      supportsThreads: false,
      supportsMarkdown: true,
    };
  }

  async connect(onMessage: InboundHandler): Promise<void> {
    await this.disconnect();
    this.#handler = onMessage;
    this.#link = new ConnectionTracker();
    const connection = new GatewayConnection({
      token: this.settings.token,
      rest: this.#rest,
      watchdogMs: this.settings.watchdogMs,
      log: this.log,
      onDispatch: (event) => this.#dispatch(event),
      onUp: () => this.#link.markUp(),
      onReconnecting: (reason) => this.#link.markReconnecting(reason),
    });
    this.#connection = connection;
    try {
      await connection.start();
    } catch (error) {
      await this.disconnect();
      throw toHermesError(error, 'connecting to the gateway', '-', this.settings.token);
    }
    this.log.info('discord connected', { botId: this.#botId });
  }

  async disconnect(): Promise<void> {
    this.#handler = undefined;
    const connection = this.#connection;
    this.#connection = undefined;
    this.#link.markDown();
    await connection?.stop();
  }

  async send(target: SendTarget, message: OutboundMessage): Promise<SentMessage> {
    const channelId = target.threadId ?? target.chatId;
    const body: Record<string, unknown> = {
      content: message.text,
      // The agent's text must not ping @everyone or anyone else.
      allowed_mentions: { parse: [] },
    };
    if (target.replyTo) {
      body.message_reference = { message_id: target.replyTo, fail_if_not_exists: false };
    }
    try {
      const sent = (await this.#rest.post(`/channels/${channelId}/messages`, { body })) as {
        id: string;
      };
      return { messageId: sent.id };
    } catch (error) {
      throw toHermesError(error, 'sending a message', channelId, this.settings.token);
    }
  }

  override async edit(target: SendTarget, messageId: string, text: string): Promise<boolean> {
    const channelId = target.threadId ?? target.chatId;
    try {
      await this.#rest.patch(`/channels/${channelId}/messages/${messageId}`, {
        body: { content: text, allowed_mentions: { parse: [] } },
      });
      return true;
    } catch (error) {
      throw toHermesError(error, 'editing a message', channelId, this.settings.token);
    }
  }

  override async sendTyping(target: SendTarget): Promise<void> {
    const channelId = target.threadId ?? target.chatId;
    try {
      await this.#rest.post(`/channels/${channelId}/typing`);
    } catch {
      // Typing is a courtesy: a failure must not fail the turn.
    }
  }

  #dispatch(event: DispatchEvent): void {
    if (event.t === 'READY') {
      this.#botId = (event.d as { user?: { id?: string } }).user?.id;
      return;
    }
    if (event.t !== 'MESSAGE_CREATE') return;
    const handler = this.#handler;
    if (!handler) return;
    const inbound = toInbound(
      event.d as DiscordMessagePayload,
      { botId: this.#botId, allowedChannels: this.settings.allowedChannels },
      Date.now(),
    );
    if (!inbound) return;
    Promise.resolve()
      .then(() => handler(inbound))
      .catch((error: unknown) => {
        this.log.warn('discord message handler failed', {
          error: error instanceof Error ? error.name : 'unknown',
        });
      });
  }
}
