/** Slack Web API failures as `HermesError`s: dead targets for the ledger, no token in any text. */
import { CHAT_FORBIDDEN, CHAT_NOT_FOUND, HermesError } from '@hermes/plugin-sdk';

/** Slack `error` codes that mean the channel is gone. */
const NOT_FOUND = new Set(['channel_not_found', 'is_archived', 'thread_not_found']);

/** Slack `error` codes that mean the bot may never post there. */
const FORBIDDEN = new Set([
  'not_in_channel',
  'restricted_action',
  'restricted_action_read_only_channel',
  'restricted_action_thread_only_channel',
  'cannot_dm_bot',
  'user_disabled',
  'ekm_access_denied',
]);

/** Error codes that will not go away by retrying. */
const PERMANENT = new Set(['invalid_auth', 'not_authed', 'account_inactive', 'token_revoked']);

/** The Slack `error` string of a `@slack/web-api` platform error, when there is one. */
export function slackErrorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const data = (error as { data?: unknown }).data;
  if (typeof data !== 'object' || data === null) return undefined;
  const code = (data as { error?: unknown }).error;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Turns what `@slack/web-api` threw for `method` into a `HermesError`: `gateway.chat_not_found`
 * or `gateway.forbidden` for a dead target, `slack.api_error` otherwise. The message holds the
 * method and Slack's error code only: request options (and so the token) never reach it.
 */
export function toHermesError(method: string, error: unknown): HermesError {
  const code = slackErrorCode(error);
  if (code !== undefined) {
    const message = `Slack ${method} failed: ${code}`;
    if (NOT_FOUND.has(code)) return new HermesError(CHAT_NOT_FOUND, message, { details: { code } });
    if (FORBIDDEN.has(code)) return new HermesError(CHAT_FORBIDDEN, message, { details: { code } });
    return new HermesError('slack.api_error', message, {
      details: { code },
      retryable: !PERMANENT.has(code),
    });
  }
  const kind =
    typeof error === 'object' && error !== null && 'code' in error
      ? String((error as { code: unknown }).code)
      : 'unknown';
  return new HermesError('slack.unreachable', `Slack ${method} failed (${kind})`, {
    retryable: true,
  });
}
