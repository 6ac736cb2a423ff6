/** Error codes a session store raises. */
import { HermesError } from '@hermes/protocol';

/** A write named a session that does not exist. */
export const SESSION_NOT_FOUND_CODE = 'state.session_not_found';
/** `createSession` was given an id that is already taken. */
export const SESSION_EXISTS_CODE = 'state.session_exists';

/** The error a store throws when a write names an unknown session. */
export function sessionNotFoundError(sessionId: string): HermesError {
  return new HermesError(
    SESSION_NOT_FOUND_CODE,
    `Session "${sessionId}" does not exist. List sessions with \`hermes sessions list\`.`,
    { details: { sessionId } },
  );
}

/** The error a store throws when `createSession` is given an id that is already taken. */
export function sessionExistsError(sessionId: string): HermesError {
  return new HermesError(
    SESSION_EXISTS_CODE,
    `Session "${sessionId}" already exists; omit the id to get a fresh one.`,
    { details: { sessionId } },
  );
}
