/** `platforms.slack` in config.yaml, validated, with the environment's secrets as fallbacks. */
import { HermesError } from '@hermes/plugin-sdk';
import { z } from 'zod';

/** The public Slack Web API; tests point `api_url` at a local fake. */
export const DEFAULT_SLACK_API_URL = 'https://slack.com/api/';

/** Files bigger than this are not downloaded by default (Slack allows up to 1 GB). */
export const DEFAULT_MAX_FILE_BYTES = 20 * 1024 * 1024;

const SettingsSchema = z.object({
  bot_token: z.string().min(1).optional(),
  app_token: z.string().min(1).optional(),
  signing_secret: z.string().min(1).optional(),
  /** Read by the gateway's authorization step, not by the adapter. */
  allowed_users: z.array(z.union([z.string(), z.number()])).optional(),
  api_url: z.string().url().optional(),
  mode: z.enum(['socket', 'http']).optional(),
  ping_interval_ms: z.number().int().positive().optional(),
  pong_timeout_ms: z.number().int().positive().optional(),
  http_host: z.string().trim().min(1).optional(),
  http_port: z.number().int().min(0).max(65_535).optional(),
  http_path: z
    .string()
    .regex(/^\/\S*$/, 'must start with /')
    .optional(),
  max_file_bytes: z.number().int().nonnegative().optional(),
});

/** What both modes share. */
interface CommonSettings {
  /** `xoxb-…`: the bot's token for the Web API and file downloads. */
  readonly botToken: string;
  /** The Web API's base URL, ending in `/`. */
  readonly apiUrl: string;
  /** Files bigger than this are skipped (the agent gets a note instead). */
  readonly maxFileBytes: number;
}

/** Socket Mode: the app opens a WebSocket to Slack; no public URL needed. */
export interface SocketModeSettings extends CommonSettings {
  readonly mode: 'socket';
  /** `xapp-…`: the app-level token that opens Socket Mode connections. */
  readonly appToken: string;
  /** How often the adapter pings the Socket Mode connection. */
  readonly pingIntervalMs: number;
  /** A ping unanswered this long means the socket stalled: it is dropped and reopened. */
  readonly pongTimeoutMs: number;
}

/** HTTP events: Slack POSTs signed events to a Request URL this adapter serves. */
export interface HttpEventsSettings extends CommonSettings {
  readonly mode: 'http';
  /** The app's signing secret: every request's `X-Slack-Signature` is checked with it. */
  readonly signingSecret: string;
  readonly host: string;
  /** 0 picks a free port (tests). */
  readonly port: number;
  /** The one path events are accepted on. */
  readonly path: string;
}

/** What the adapter needs, resolved from config and the environment. */
export type SlackSettings = SocketModeSettings | HttpEventsSettings;

/**
 * Reads `platforms.slack` (`bot_token`, `mode`, `app_token` or `signing_secret`, …), falling back
 * to `SLACK_BOT_TOKEN` / `SLACK_APP_TOKEN` / `SLACK_SIGNING_SECRET`. Messages name settings,
 * never their values.
 *
 * @throws HermesError `slack.config_invalid` for a malformed section or a missing secret.
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
  const mode = section.mode ?? 'socket';
  const label = mode === 'http' ? 'HTTP events (mode: http)' : 'Socket Mode';
  const botToken = section.bot_token ?? env.SLACK_BOT_TOKEN;
  if (!botToken) throw missing('bot_token', 'SLACK_BOT_TOKEN', label);
  const apiUrl = section.api_url ?? DEFAULT_SLACK_API_URL;
  const common: CommonSettings = {
    botToken,
    apiUrl: apiUrl.endsWith('/') ? apiUrl : `${apiUrl}/`,
    maxFileBytes: section.max_file_bytes ?? DEFAULT_MAX_FILE_BYTES,
  };
  if (mode === 'http') {
    const signingSecret = section.signing_secret ?? env.SLACK_SIGNING_SECRET;
    if (!signingSecret) throw missing('signing_secret', 'SLACK_SIGNING_SECRET', label);
    return {
      ...common,
      mode,
      signingSecret,
      host: section.http_host ?? '127.0.0.1',
      port: section.http_port ?? 3000,
      path: section.http_path ?? '/slack/events',
    };
  }
  const appToken = section.app_token ?? env.SLACK_APP_TOKEN;
  if (!appToken) throw missing('app_token', 'SLACK_APP_TOKEN', label);
  return {
    ...common,
    mode,
    appToken,
    pingIntervalMs: section.ping_interval_ms ?? 10_000,
    pongTimeoutMs: section.pong_timeout_ms ?? 5_000,
  };
}

function missing(key: string, variable: string, label: string): HermesError {
  return new HermesError(
    'slack.config_invalid',
    `platforms.slack.${key} (or ${variable}) is required for ${label}.`,
  );
}
