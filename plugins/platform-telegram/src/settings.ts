/** `platforms.telegram` in config.yaml, with the environment variables that stand in for it. */
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
  })
  .passthrough();

/** The resolved settings the adapter runs with. */
export interface TelegramSettings {
  readonly token: string;
  readonly allowedUsers: readonly string[];
  readonly apiRoot: string;
  readonly mode: 'polling';
  readonly pollTimeoutSeconds: number;
  readonly watchdogMarginMs: number;
  readonly retryBaseMs: number;
  readonly retryMaxMs: number;
}

/**
 * Resolves the section: `token` falls back to `TELEGRAM_BOT_TOKEN`, `allowed_users` to
 * `TELEGRAM_ALLOWED_USERS` (comma-separated ids).
 *
 * @throws Error naming the bad field (never the token's value), or saying webhook mode is not
 *   available yet.
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
  if (section.mode === 'webhook') {
    throw new Error('platforms.telegram mode webhook is not available yet: use mode polling');
  }
  const allowed = section.allowed_users ?? idList.parse(env.TELEGRAM_ALLOWED_USERS ?? '');
  return {
    token,
    allowedUsers: allowed,
    apiRoot: (section.api_root ?? DEFAULT_API_ROOT).replace(/\/+$/, ''),
    mode: 'polling',
    pollTimeoutSeconds: section.poll_timeout_seconds,
    watchdogMarginMs: section.watchdog_margin_seconds * 1000,
    retryBaseMs: section.retry_base_ms,
    retryMaxMs: section.retry_max_ms,
  };
}
