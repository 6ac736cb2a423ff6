/** `platforms.slack` in config.yaml, validated, with the environment's tokens as fallbacks. */
import { HermesError } from '@hermes/plugin-sdk';
import { z } from 'zod';

/** The public Slack Web API; tests point `api_url` at a local fake. */
export const DEFAULT_SLACK_API_URL = 'https://slack.com/api/';

const SettingsSchema = z.object({
  bot_token: z.string().min(1).optional(),
  app_token: z.string().min(1).optional(),
  /** Read by the gateway's authorization step, not by the adapter. */
  allowed_users: z.array(z.union([z.string(), z.number()])).optional(),
  api_url: z.string().url().optional(),
  mode: z.enum(['socket', 'http']).optional(),
  ping_interval_ms: z.number().int().positive().optional(),
  pong_timeout_ms: z.number().int().positive().optional(),
});

/** What the adapter needs, resolved from config and the environment. */
export interface SlackSettings {
  /** `xoxb-…`: the bot's token for the Web API. */
  readonly botToken: string;
  /** `xapp-…`: the app-level token that opens Socket Mode connections. */
  readonly appToken: string;
  /** The Web API's base URL, ending in `/`. */
  readonly apiUrl: string;
  /** How often the adapter pings the Socket Mode connection. */
  readonly pingIntervalMs: number;
  /** A ping unanswered this long means the socket stalled: it is dropped and reopened. */
  readonly pongTimeoutMs: number;
}

/**
 * Reads `platforms.slack` (`bot_token`, `app_token`, `api_url`, …), falling
 * back to `SLACK_BOT_TOKEN` / `SLACK_APP_TOKEN`. Messages name settings, never token values.
 *
 * @throws HermesError `slack.config_invalid` for a malformed section or a missing token, and
 *   `slack.mode_unsupported` for `mode: http` (signing-secret HTTP events are not built yet).
 */
export function resolveSlackSettings(
  config: Readonly<Record<string, unknown>>,
  env: NodeJS.ProcessEnv = process.env,
): SlackSettings {
  const parsed = SettingsSchema.safeParse(config);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((issue) => issue.path.join('.') || '(section)');
    throw new HermesError(
      'slack.config_invalid',
      `platforms.slack is invalid: ${[...new Set(fields)].join(', ')}`,
    );
  }
  const section = parsed.data;
  if (section.mode === 'http') {
    throw new HermesError(
      'slack.mode_unsupported',
      'platforms.slack.mode: http (signing_secret, HTTP events) is not supported yet; use Socket Mode with app_token.',
    );
  }
  const botToken = section.bot_token ?? env.SLACK_BOT_TOKEN;
  const appToken = section.app_token ?? env.SLACK_APP_TOKEN;
  if (!botToken) throw missing('bot_token', 'SLACK_BOT_TOKEN');
  if (!appToken) throw missing('app_token', 'SLACK_APP_TOKEN');
  const apiUrl = section.api_url ?? DEFAULT_SLACK_API_URL;
  return {
    botToken,
    appToken,
    apiUrl: apiUrl.endsWith('/') ? apiUrl : `${apiUrl}/`,
    pingIntervalMs: section.ping_interval_ms ?? 10_000,
    pongTimeoutMs: section.pong_timeout_ms ?? 5_000,
  };
}

function missing(key: string, variable: string): HermesError {
  return new HermesError(
    'slack.config_invalid',
    `platforms.slack.${key} (or ${variable}) is required for Socket Mode.`,
  );
}
