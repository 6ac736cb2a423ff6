/**
 * `@hermes/plugin-platform-slack`: the `slack` platform for the Hermes gateway (Socket Mode or
 * HTTP events in, Web API out). Enable with `plugins.enabled: [platform-slack]` and
 * `platforms.slack`.
 */
import { definePlugin } from '@hermes/plugin-sdk';
import { resolveSlackSettings } from './settings.js';
import { SlackAdapter } from './slack-adapter.js';

export {
  MAX_EVENT_BODY_BYTES,
  SIGNATURE_WINDOW_SECONDS,
  signSlackRequest,
  verifySlackRequest,
} from './http-events.js';
export { renderMrkdwn } from './mrkdwn.js';
export {
  DEFAULT_MAX_FILE_BYTES,
  type HttpEventsSettings,
  resolveSlackSettings,
  type SlackSettings,
  type SocketModeSettings,
} from './settings.js';
export {
  SLACK_MAX_MESSAGE_LENGTH,
  SlackAdapter,
  type SlackAdapterOptions,
} from './slack-adapter.js';
export { toHermesError } from './slack-errors.js';

/** The plugin: registers `slack`, built from `platforms.slack` and the environment. */
export default definePlugin({
  manifest: {
    name: '@hermes/plugin-platform-slack',
    version: '0.0.0',
    description:
      'Slack for the Hermes gateway: Socket Mode or HTTP events, mrkdwn, threads, edit streaming, files.',
    kind: 'platform',
  },
  register(ctx) {
    ctx.registerPlatform(
      'slack',
      (config) =>
        new SlackAdapter(resolveSlackSettings(config), {
          logger: ctx.logger,
          attachmentsDir: ctx.storage.path('attachments'),
        }),
    );
  },
});
