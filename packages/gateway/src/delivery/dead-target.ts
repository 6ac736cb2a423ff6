/**
 * Dead targets (seed 1.4 ⑦): a chat that was deleted, a group the bot was removed from, a user
 * who blocked it. Sending there fails forever, so the delivery leaves the ledger at once instead
 * of being retried on every start.
 *
 * Adapters report them by throwing a `HermesError` (from `@hermes/protocol`) with one of these
 * codes from `send` or `edit`; every other failure is treated as passing and is retried.
 */
import { isHermesError } from '@hermes/protocol';

/** The chat, channel or thread does not exist (any more): deleted, archived, wrong id. */
export const CHAT_NOT_FOUND = 'gateway.chat_not_found';

/** The platform refuses to let the bot post there: kicked from the group, blocked by the user. */
export const CHAT_FORBIDDEN = 'gateway.forbidden';

/** The codes that mark a delivery target as gone for good. */
export const DEAD_TARGET_CODES: ReadonlySet<string> = new Set([CHAT_NOT_FOUND, CHAT_FORBIDDEN]);

/** True when `error` says the chat is gone (see {@link DEAD_TARGET_CODES}); retrying is futile. */
export function isDeadTargetError(error: unknown): boolean {
  return isHermesError(error) && DEAD_TARGET_CODES.has(error.code);
}
