/**
 * `@hermes/plugin-platform-telegram`: registers the `telegram` platform. Enable it with
 * `plugins.enabled: [platform-telegram]` and configure it under `platforms.telegram`.
 */
import { definePlugin } from '@hermes/plugin-sdk';
import { resolveTelegramSettings } from './settings.js';
import { TelegramAdapter } from './telegram-adapter.js';

export { downloadFile, type FileRef, fileRefs, MAX_DOWNLOAD_BYTES } from './attachments.js';
export { type BotIdentity, toInbound } from './inbound.js';
export { escapeMarkdownV2, renderMarkdownV2, stripMarkdownV2 } from './markdown-v2.js';
export { Poller, type PollerEvents, type PollerTiming } from './poller.js';
export {
  DEFAULT_API_ROOT,
  resolveTelegramSettings,
  type TelegramSettings,
  TelegramSettingsSchema,
  type WebhookSettings,
} from './settings.js';
export { openEntities, splitMarkdownV2 } from './split-markdown-v2.js';
export {
  MAX_RATE_LIMIT_WAIT_SECONDS,
  TELEGRAM_MAX_MESSAGE_LENGTH,
  TelegramAdapter,
} from './telegram-adapter.js';
export { webhookProblem } from './webhook-health.js';
export {
  MAX_WEBHOOK_BODY_BYTES,
  WebhookServer,
  type WebhookServerOptions,
} from './webhook-server.js';

/** The plugin: one platform, `telegram`. */
export default definePlugin({
  manifest: {
    name: '@hermes/plugin-platform-telegram',
    version: '0.0.0',
    description: 'Telegram for the Hermes TS gateway.',
    kind: 'platform',
  },
  register(ctx) {
    ctx.registerPlatform(
      'telegram',
      (config) =>
        new TelegramAdapter(
          resolveTelegramSettings(config),
          ctx.logger,
          ctx.storage.path('attachments'),
        ),
    );
  },
});
