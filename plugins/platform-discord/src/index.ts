/**
 * @packageDocumentation
 * `@hermes/plugin-platform-discord`: the Discord chat platform for the Hermes TS gateway. Enable
 * the plugin, then configure `platforms.discord` (see the README).
 */
import { definePlugin } from '@hermes/plugin-sdk';
import { DiscordAdapter } from './discord-adapter.js';
import { resolveDiscordSettings } from './settings.js';

export {
  attachmentKind,
  type DiscordAttachmentPayload,
  type DownloadResult,
  downloadAttachments,
  validAttachments,
} from './attachments.js';
export { DISCORD_MAX_MESSAGE_LENGTH, DiscordAdapter, threadName } from './discord-adapter.js';
export { DISCORD_INTENTS, formatDuration, GatewayConnection } from './gateway-connection.js';
export { type DiscordMessagePayload, type InboundGate, toInbound } from './inbound.js';
export { scrub, toHermesError } from './rest-errors.js';
export {
  DEFAULT_API_URL,
  DEFAULT_MAX_ATTACHMENT_BYTES,
  DEFAULT_WATCHDOG_MS,
  type DiscordSettings,
  resolveDiscordSettings,
} from './settings.js';
export {
  ChannelDirectory,
  type ChannelPlace,
  DEFAULT_CHANNEL_CACHE_SIZE,
  placeOf,
  THREAD_CHANNEL_TYPES,
} from './threads.js';

/** The plugin: registers the `discord` platform. */
export default definePlugin({
  manifest: {
    name: '@hermes/plugin-platform-discord',
    version: '0.0.0',
    description: 'Discord chat platform for the Hermes gateway.',
    kind: 'platform',
  },
  register(ctx) {
    ctx.registerPlatform('discord', (config) => {
      return new DiscordAdapter(
        resolveDiscordSettings(config),
        ctx.logger,
        ctx.storage.path('attachments'),
      );
    });
  },
});
