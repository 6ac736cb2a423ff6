/** `platforms.discord` in config.yaml, validated into what the adapter needs. */
import { HermesError } from '@hermes/plugin-sdk';

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

function ids(value: unknown, key: string): string[] {
  if (value === undefined || value === null) return [];
  const list = typeof value === 'string' ? value.split(',') : value;
  if (!Array.isArray(list)) throw invalid(`${key} must be a list of ids`);
  return list.map((item) => String(item).trim()).filter((item) => item.length > 0);
}

function invalid(message: string): HermesError {
  return new HermesError('validation.invalid_input', `platforms.discord: ${message}`);
}

function positive(value: unknown, key: string, fallback: number): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw invalid(`${key} must be a non-negative integer`);
  }
  return value;
}

function flag(value: unknown, key: string): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 'false') return value === 'true';
  throw invalid(`${key} must be true or false`);
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
  const token = raw.token ?? env.DISCORD_BOT_TOKEN;
  if (typeof token !== 'string' || token.trim() === '') {
    throw invalid('a bot token is required: set platforms.discord.token or DISCORD_BOT_TOKEN');
  }
  const apiUrl = raw.api_url ?? DEFAULT_API_URL;
  if (typeof apiUrl !== 'string' || !/^https?:\/\//.test(apiUrl)) {
    throw invalid('api_url must be an http(s) URL');
  }
  return {
    token: token.trim(),
    allowedChannels: ids(raw.allowed_channels, 'allowed_channels'),
    apiUrl: apiUrl.replace(/\/+$/, ''),
    watchdogMs: positive(raw.watchdog_ms, 'watchdog_ms', DEFAULT_WATCHDOG_MS),
    restRetries: positive(raw.rest_retries, 'rest_retries', 3),
    autoThread: flag(raw.auto_thread, 'auto_thread'),
    maxAttachmentBytes: positive(
      raw.max_attachment_bytes,
      'max_attachment_bytes',
      DEFAULT_MAX_ATTACHMENT_BYTES,
    ),
  };
}
