/**
 * The Discord `PlatformAdapter`: messages arrive over the gateway (`GatewayConnection`), replies
 * go out through REST (`@discordjs/rest`, which handles rate limits and retries transient
 * failures with backoff). 2,000 characters a message; replies stream by editing.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REST } from '@discordjs/rest';
import {
  type ConnectionState,
  ConnectionTracker,
  type InboundHandler,
  type InboundMessage,
  type OutboundMessage,
  PlatformAdapter,
  type PlatformCapabilities,
  type PluginLogger,
  type SendTarget,
  type SentMessage,
} from '@hermes/plugin-sdk';
import { downloadAttachments, validAttachments } from './attachments.js';
import { type DispatchEvent, GatewayConnection } from './gateway-connection.js';
import { type DiscordMessagePayload, DiscordMessagePayloadSchema, toInbound } from './inbound.js';
import { toHermesError } from './rest-errors.js';
import type { DiscordSettings } from './settings.js';
import { ChannelDirectory, placeOf } from './threads.js';

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
  /** Per channel, the inbound work still running (keeps each channel's messages in order). */
  readonly #lanes = new Map<string, Promise<void>>();
  readonly #channels: ChannelDirectory;

  constructor(
    private readonly settings: DiscordSettings,
    private readonly log: PluginLogger = silent,
    /** Where downloaded attachments go (the plugin passes its storage folder). */
    private readonly attachmentsDir: string = join(tmpdir(), 'hermes-discord-attachments'),
  ) {
    super();
    this.#rest = new REST({
      api: settings.apiUrl,
      version: '10',
      retries: settings.restRetries,
    }).setToken(settings.token);
    this.#channels = new ChannelDirectory(
      (id) => this.#rest.get(`/channels/${id}`),
      (id, error) =>
        this.log.warn('discord channel lookup failed; treated as not a thread', {
          error: toHermesError(error, 'looking up the channel', id, settings.token).message,
        }),
    );
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
      supportsThreads: true,
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
    this.#channels.observe(event);
    if (event.t !== 'MESSAGE_CREATE') return;
    const handler = this.#handler;
    const parsed = DiscordMessagePayloadSchema.safeParse(event.d);
    if (!parsed.success) {
      this.log.warn('discord message payload ignored: not a message object');
      return;
    }
    const message = parsed.data;
    // Ids go into REST paths: only Discord-shaped ones (snowflakes; the fake's are words).
    if (!handler || !isId(message.channel_id) || !isId(message.id)) return;
    const receivedAt = Date.now();
    // A thread lookup or a download may take a while: messages of one channel still reach the
    // handler in the order they were sent, while other channels do not wait for them.
    this.#inOrder(message.channel_id, async () => {
      const inbound = await this.#normalize(message, receivedAt);
      // Disconnected (or reconnected with another handler) while a lookup or download ran.
      if (!inbound || this.#handler !== handler) return;
      Promise.resolve()
        .then(() => handler(inbound))
        .catch((error: unknown) => {
          this.log.warn('discord message handler failed', {
            error: error instanceof Error ? error.name : 'unknown',
          });
        });
    });
  }

  #inOrder(channelId: string, work: () => Promise<void>): void {
    const previous = this.#lanes.get(channelId) ?? Promise.resolve();
    const next = previous.then(work).catch((error: unknown) => {
      this.log.warn('discord inbound message dropped', {
        error: error instanceof Error ? error.name : 'unknown',
      });
    });
    this.#lanes.set(channelId, next);
    void next.finally(() => {
      if (this.#lanes.get(channelId) === next) this.#lanes.delete(channelId);
    });
  }

  async #normalize(
    message: DiscordMessagePayload,
    receivedAt: number,
  ): Promise<InboundMessage | undefined> {
    const isGuild = message.guild_id !== undefined;
    const author = message.author;
    // Skip the lookup for messages that are dropped anyway.
    if (!author || author.bot || author.id === this.#botId) return undefined;
    const place = isGuild ? await this.#channels.resolve(message.channel_id) : undefined;
    const inbound = toInbound(
      message,
      {
        botId: this.#botId,
        allowedChannels: this.settings.allowedChannels,
        ...(place ? { place } : {}),
      },
      receivedAt,
    );
    if (!inbound) return undefined;
    const placed =
      this.settings.autoThread && isGuild && inbound.threadId === undefined
        ? await this.#intoNewThread(inbound, message)
        : inbound;
    return this.#withFiles(placed, message);
  }

  /** Downloads the message's files; the text gets one line per file, so the agent knows. */
  async #withFiles(
    inbound: InboundMessage,
    message: DiscordMessagePayload,
  ): Promise<InboundMessage> {
    const files = validAttachments(message.attachments);
    if (files.length === 0) return inbound;
    const { attachments, notes } = await downloadAttachments(files, {
      dir: this.attachmentsDir,
      maxBytes: this.settings.maxAttachmentBytes,
      messageId: message.id,
      onFailure: (name, error) =>
        this.log.warn('discord attachment not downloaded', {
          name,
          error: error instanceof Error ? error.name : 'unknown',
        }),
    });
    const text = [inbound.text, ...notes].filter((line) => line !== '').join('\n');
    return { ...inbound, text, ...(attachments.length > 0 ? { attachments } : {}) };
  }

  /** `auto_thread`: starts a thread from the message and moves the conversation there. */
  async #intoNewThread(
    inbound: InboundMessage,
    message: DiscordMessagePayload,
  ): Promise<InboundMessage> {
    const name = threadName(inbound.text);
    try {
      const thread = await this.#rest.post(
        `/channels/${message.channel_id}/messages/${message.id}/threads`,
        { body: { name, auto_archive_duration: 1440 } },
      );
      const found = placeOf(thread);
      if (!found) return inbound;
      // The thread is the bot's: its follow-ups need no mention.
      this.#channels.learn({ ...(thread as object), owner_id: this.#botId });
      return { ...inbound, threadId: found.id };
    } catch (error) {
      // A channel that cannot hold threads (or no permission): answer where the question was.
      const failure = toHermesError(
        error,
        'starting a thread',
        message.channel_id,
        this.settings.token,
      );
      this.log.warn('discord thread not started; answering in the channel', {
        error: failure.message,
      });
      return inbound;
    }
  }
}

function isId(value: unknown): value is string {
  return typeof value === 'string' && /^[\w-]{1,64}$/.test(value);
}

/** A thread's name from the question: its first line, within Discord's 100 characters. */
export function threadName(text: string): string {
  const line = text.split('\n')[0]?.trim() ?? '';
  if (line === '') return 'Hermes';
  return line.length <= 90 ? line : `${line.slice(0, 89)}…`;
}
