/** `platforms.telegram` in config.yaml, with the environment variables that stand in for it. */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';

/** The public Bot API; tests point `api_root` at a local fake instead. */
export const DEFAULT_API_ROOT = 'https://api.telegram.org';

const idList = z
  .union([z.string(), z.array(z.union([z.string(), z.number()]))])
  .transform((value) =>
    (typeof value === 'string' ? value.split(',') : value.map(String))
      .map((id) => id.trim())
      .filter((id) => id.length > 0),
  );

/** Telegram's rule for `secret_token`: 1–256 of A–Z, a–z, 0–9, `_` and `-`. */
const SECRET_PATTERN = /^[A-Za-z0-9_-]{1,256}$/;

/** The section as written; unknown keys (the gateway's own `enabled`, …) pass through. */
export const TelegramSettingsSchema = z
  .object({
    token: z.string().trim().min(1).optional(),
    allowed_users: idList.optional(),
    api_root: z.string().url().optional(),
    mode: z.enum(['polling', 'webhook']).default('polling'),
    /** How long one `getUpdates` call may wait on the server for updates. */
    poll_timeout_seconds: z.number().int().min(0).max(50).default(30),
    /** Extra time for the answer to reach us before the watchdog restarts the poller. */
    watchdog_margin_seconds: z.number().min(0.05).max(300).default(15),
    /** Back-off after a failed poll: starts here, doubles, capped at `retry_max_ms`. */
    retry_base_ms: z.number().int().min(1).default(500),
    retry_max_ms: z.number().int().min(1).default(30_000),
    /** Webhook mode: the public https URL Telegram posts to (your reverse proxy's). */
    webhook_url: z
      .string()
      .url()
      .refine((url) => url.startsWith('https://'), 'Telegram posts only to https URLs')
      .optional(),
    /** Webhook mode: where our HTTP server listens; the reverse proxy forwards to it. */
    webhook_host: z.string().trim().min(1).default('127.0.0.1'),
    /** Webhook mode: the local port; 0 picks a free one. */
    webhook_port: z.number().int().min(0).max(65_535).default(8443),
    /** Webhook mode: the local path; default the URL's path, else `/telegram`. */
    webhook_path: z.string().startsWith('/').optional(),
    /** Webhook mode: the `secret_token` Telegram sends back in every request. */
    webhook_secret: z.string().regex(SECRET_PATTERN).optional(),
    /**
     * Webhook mode: how often to ask Telegram (`getWebhookInfo`) whether it can deliver to the
     * webhook, in seconds; 0 never asks. A proxy that refuses Telegram is otherwise silent.
     */
    webhook_check_seconds: z.number().min(0).default(300),
  })
  .passthrough();

/** The resolved settings the adapter runs with. */
export interface TelegramSettings {
  readonly token: string;
  readonly allowedUsers: readonly string[];
  readonly apiRoot: string;
  readonly mode: 'polling' | 'webhook';
  /** Present in webhook mode only. */
  readonly webhook?: WebhookSettings;
  readonly pollTimeoutSeconds: number;
  readonly watchdogMarginMs: number;
  readonly retryBaseMs: number;
  readonly retryMaxMs: number;
}

/** Webhook mode's resolved settings. */
export interface WebhookSettings {
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly path: string;
  readonly secret: string;
  /** How often to ask Telegram whether it can deliver (`getWebhookInfo`); 0: never. */
  readonly checkMs: number;
}

/**
 * Resolves the section: `token` falls back to `TELEGRAM_BOT_TOKEN`, `allowed_users` to
 * `TELEGRAM_ALLOWED_USERS` (comma-separated ids), `webhook_secret` to `TELEGRAM_WEBHOOK_SECRET`
 * and then to a random secret made for this process.
 *
 * @throws Error naming the bad or missing field (never a token's or secret's value).
 */
export function resolveTelegramSettings(
  raw: Readonly<Record<string, unknown>>,
  env: Readonly<Record<string, string | undefined>> = process.env,
): TelegramSettings {
  const parsed = TelegramSettingsSchema.safeParse(raw);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => i.path.join('.') || '(root)').join(', ');
    throw new Error(`platforms.telegram is invalid: check ${fields}`);
  }
  const section = parsed.data;
  const token = section.token ?? env.TELEGRAM_BOT_TOKEN?.trim();
  if (!token) {
    throw new Error('platforms.telegram needs a bot token: set token or TELEGRAM_BOT_TOKEN');
  }
  const allowed = section.allowed_users ?? idList.parse(env.TELEGRAM_ALLOWED_USERS ?? '');
  return {
    token,
    allowedUsers: allowed,
    apiRoot: (section.api_root ?? DEFAULT_API_ROOT).replace(/\/+$/, ''),
    mode: section.mode,
    ...(section.mode === 'webhook' ? { webhook: resolveWebhook(section, env) } : {}),
    pollTimeoutSeconds: section.poll_timeout_seconds,
    watchdogMarginMs: section.watchdog_margin_seconds * 1000,
    retryBaseMs: section.retry_base_ms,
    retryMaxMs: section.retry_max_ms,
  };
}

function resolveWebhook(
  section: z.output<typeof TelegramSettingsSchema>,
  env: Readonly<Record<string, string | undefined>>,
): WebhookSettings {
  const url = section.webhook_url;
  if (!url) {
    throw new Error(
      'platforms.telegram mode webhook needs webhook_url: the public https URL Telegram posts to',
    );
  }
  const fromEnv = env.TELEGRAM_WEBHOOK_SECRET?.trim();
  if (fromEnv && !SECRET_PATTERN.test(fromEnv)) {
    throw new Error('TELEGRAM_WEBHOOK_SECRET is invalid: use 1-256 of A-Z, a-z, 0-9, _ and -');
  }
  const urlPath = new URL(url).pathname.replace(/\/+$/, '');
  return {
    url,
    host: section.webhook_host,
    port: section.webhook_port,
    path: section.webhook_path ?? (urlPath || '/telegram'),
    secret: section.webhook_secret ?? fromEnv ?? randomBytes(32).toString('base64url'),
    checkMs: section.webhook_check_seconds * 1000,
  };
}
