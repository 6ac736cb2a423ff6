/**
 * Discord REST failures → `HermesError`s the gateway understands: a channel that is gone or
 * closed to the bot is a dead target (`gateway.chat_not_found` / `gateway.forbidden`), so the
 * delivery ledger stops retrying it; anything else is retryable. Messages never carry the token.
 */
import { CHAT_FORBIDDEN, CHAT_NOT_FOUND, HermesError } from '@hermes/plugin-sdk';

/** Discord JSON error codes meaning the channel or message is gone. */
const NOT_FOUND_CODES = new Set([10003, 10008, 10013]);
/** Discord JSON error codes meaning the bot may not post there (kicked, DMs closed, blocked). */
const FORBIDDEN_CODES = new Set([50001, 50007, 50013, 40002]);

function field(error: unknown, key: string): unknown {
  return typeof error === 'object' && error !== null
    ? (error as Record<string, unknown>)[key]
    : undefined;
}

/** Removes `token` from `text`, wherever it appears. */
export function scrub(text: string, token: string): string {
  return token ? text.split(token).join('[REDACTED]') : text;
}

/**
 * Wraps what `@discordjs/rest` threw while doing `action` on `channelId`.
 *
 * @param token - Scrubbed from the message, in case a layer below ever echoes it.
 */
export function toHermesError(
  error: unknown,
  action: string,
  channelId: string,
  token: string,
): HermesError {
  const status = field(error, 'status');
  const code = field(error, 'code');
  const detail = scrub(error instanceof Error ? error.message : String(error), token);
  const details = {
    channelId,
    ...(typeof status === 'number' ? { status } : {}),
    ...(typeof code === 'number' ? { discordCode: code } : {}),
  };
  const message = `discord: ${action} in channel ${channelId} failed: ${detail}`;
  if (status === 404 || (typeof code === 'number' && NOT_FOUND_CODES.has(code))) {
    return new HermesError(CHAT_NOT_FOUND, message, { details });
  }
  if (status === 403 || (typeof code === 'number' && FORBIDDEN_CODES.has(code))) {
    return new HermesError(CHAT_FORBIDDEN, message, { details });
  }
  return new HermesError('discord.request_failed', message, { details, retryable: true });
}
