/** Telegram's refusals, turned into the gateway's vocabulary, with the token kept out. */
import { HermesError } from '@hermes/plugin-sdk';
import { GrammyError } from 'grammy';

/** The gateway's dead-target codes (`@hermes/gateway`'s `CHAT_NOT_FOUND`, `CHAT_FORBIDDEN`). */
const CHAT_NOT_FOUND = 'gateway.chat_not_found';
const CHAT_FORBIDDEN = 'gateway.forbidden';

/** Replaces every occurrence of the token (and its numeric bot id prefix stays) with `[TOKEN]`. */
export function redactToken(text: string, token: string): string {
  return token ? text.split(token).join('[TOKEN]') : text;
}

/** True when Telegram refused the message's MarkdownV2 entities (worth a plain-text retry). */
export function isEntityError(error: unknown): boolean {
  return (
    error instanceof GrammyError &&
    error.error_code === 400 &&
    /can't parse entities|can't find end of|unsupported start tag/i.test(error.description)
  );
}

/** The wait Telegram asks for in a 429 (flood control), in seconds; undefined for other errors. */
export function retryAfterSeconds(error: unknown): number | undefined {
  if (!(error instanceof GrammyError) || error.error_code !== 429) return undefined;
  return error.parameters.retry_after;
}

/** True for "message is not modified": the edit asked for the text the message already has. */
export function isNotModified(error: unknown): boolean {
  return error instanceof GrammyError && /message is not modified/i.test(error.description);
}

/**
 * Maps a failed call to a `HermesError`: a blocked bot, a kicked bot or a deleted chat become the
 * gateway's dead-target codes (the delivery stops retrying); the rest `telegram.api_error`
 * (retried). The message never carries the token.
 */
export function toHermesError(method: string, error: unknown, token: string): HermesError {
  if (error instanceof GrammyError) {
    const description = redactToken(error.description, token);
    const dead =
      error.error_code === 403
        ? CHAT_FORBIDDEN
        : error.error_code === 400 &&
            /chat not found|thread not found|group chat was deactivated/i.test(description)
          ? CHAT_NOT_FOUND
          : undefined;
    return new HermesError(
      dead ?? 'telegram.api_error',
      `Telegram ${method} failed (${error.error_code}): ${description}`,
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new HermesError(
    'telegram.unreachable',
    `Telegram ${method} failed: ${redactToken(message, token)}`,
  );
}
