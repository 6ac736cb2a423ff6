/**
 * Every line the gateway itself says in a chat, in one place: the wording is part of the
 * behaviour (tests match it, people learn it) and should not drift between call sites.
 */

/** The recovery note posted on start to a chat whose turn the previous process cut off. */
export const RECOVERY_NOTE =
  "⚠️ The gateway restarted while I was working on your last message; send it again or say 'continue'.";

/** Said to messages that arrive while the gateway stops. */
export const RESTARTING = 'The gateway is restarting; try again in a minute.';

/** Busy policy `steer`: the message went into the running turn. */
export const STEERED = '↪ added to the running turn';

/** Busy policy `interrupt`: the running turn stops and this message runs next. */
export const INTERRUPTED = '⏹ stopped the running turn; your new message is next';

/** Busy policy `queue`: the message waits behind `ahead` others. */
export function queuedNotice(ahead: number): string {
  return `queued (${ahead} ahead)`;
}

/** A message dropped from the queue because of `/stop` (said to clients with their own sink). */
export const DROPPED_BY_STOP = 'stopped by /stop before it ran';

/** A message cancelled by its client before it ran. */
export const CANCELLED = 'the request was cancelled before it ran';

/** What an unknown person gets in a DM: their pairing code and what the owner must run. */
export function pairingNotice(platform: string, code: string, ttlMs: number): string {
  const minutes = Math.max(1, Math.round(ttlMs / 60_000));
  return [
    "Hi! I don't know you yet, so I can't act on your messages.",
    `Your pairing code is ${code} (valid for ${minutes} minutes).`,
    `Ask the owner of this bot to run: hermes pairing approve ${platform} ${code}`,
  ].join('\n');
}

/** Too many codes wait on this platform already. */
export const PAIRING_FULL =
  "Hi! I don't know you yet, and too many pairing requests are waiting on this platform. Try again later.";

/** Said to a client with its own channel whose user may not use the gateway. */
export const NOT_AUTHORIZED = 'You are not authorized to use this agent.';

/** Said when the agent for a session could not be built or the turn crashed before an answer. */
export const TURN_CRASHED =
  'Something went wrong on my side before I could answer; please try again.';
