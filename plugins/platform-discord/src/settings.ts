/** `platforms.discord` in config.yaml, validated into what the adapter needs. */
import { HermesError } from '@hermes/plugin-sdk';
import { z } from 'zod';

/** The Discord adapter's settings after defaults. */
export interface DiscordSettings {
  /** The bot token (never logged). */
  readonly token: string;
  /** Guild channels the bot listens in; empty means every channel it can see. */
  readonly allowedChannels: readonly string[];
  /** The REST root; tests point it at a local fake. */
  readonly apiUrl: string;
  /** Restart the gateway connection after this long without a heartbeat ACK or event. */
  readonly watchdogMs: number;
  /** How often REST retries a request that failed for a transient reason (5xx, timeout). */
  readonly restRetries: number;
  /** Answer a mention in a guild channel in a new thread started from the message. */
  readonly autoThread: boolean;
  /** Attachments bigger than this are not downloaded (a note in the text says so). */
  readonly maxAttachmentBytes: number;
}

/** 25 MB: what Discord lets a non-boosted server upload, so every ordinary file fits. */
export const DEFAULT_MAX_ATTACHMENT_BYTES = 25 * 1024 * 1024;

/** Discord's REST root. */
export const DEFAULT_API_URL = 'https://discord.com/api';
/**
 * Discord asks for a heartbeat every ~41.25 s; the SDK itself gives up on a connection whose
 * previous beat was not acknowledged. The watchdog is the backstop for a connection that never
 * gets that far (no HELLO, a hung resume): three intervals without any sign of life.
 */
export const DEFAULT_WATCHDOG_MS = 125_000;

const idList = z
  .union([z.string(), z.array(z.union([z.string(), z.number()]))])
  .transform((value) =>
    (typeof value === 'string' ? value.split(',') : value.map(String))
      .map((id) => id.trim())
      .filter((id) => id.length > 0),
  );

const count = z.number().int().nonnegative();

/** The section as written; unknown keys (the gateway's own `enabled`, …) pass through. */
export const DiscordSettingsSchema = z.looseObject({
  token: z.string().trim().min(1).optional(),
  allowed_channels: idList.nullish(),
  api_url: z
    .string()
    .regex(/^https?:\/\//, 'must be an http(s) URL')
    .optional(),
  watchdog_ms: count.optional(),
  rest_retries: count.optional(),
  auto_thread: z
    .union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')])
    .optional(),
  max_attachment_bytes: count.optional(),
});

function invalid(message: string): HermesError {
  return new HermesError('validation.invalid_input', `platforms.discord: ${message}`);
}

/** Names every bad key and what was expected, never the value (a token may sit beside it). */
function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.join('.') || '(section)'}: ${issue.message}`)
    .join('; ');
}

/**
 * Reads `platforms.discord` (and `DISCORD_BOT_TOKEN` when `token` is absent).
 *
 * @throws HermesError `validation.invalid_input` naming the bad key (never its value).
 */
export function resolveDiscordSettings(
  raw: Readonly<Record<string, unknown>>,
  env: Readonly<Record<string, string | undefined>> = process.env,
): DiscordSettings {
  const parsed = DiscordSettingsSchema.safeParse(raw);
  if (!parsed.success) throw invalid(describeIssues(parsed.error));
  const section = parsed.data;
  const token = section.token ?? env.DISCORD_BOT_TOKEN?.trim();
  if (!token) {
    throw invalid('a bot token is required: set platforms.discord.token or DISCORD_BOT_TOKEN');
  }
  return {
    token,
    allowedChannels: section.allowed_channels ?? [],
    apiUrl: (section.api_url ?? DEFAULT_API_URL).replace(/\/+$/, ''),
    watchdogMs: section.watchdog_ms ?? DEFAULT_WATCHDOG_MS,
    restRetries: section.rest_retries ?? 3,
    autoThread: section.auto_thread ?? false,
    maxAttachmentBytes: section.max_attachment_bytes ?? DEFAULT_MAX_ATTACHMENT_BYTES,
  };
}
