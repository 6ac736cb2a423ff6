/** Recognizes a persistence failure from any copy of this package. */
import { hasErrorCode } from '@hermes/protocol';
import { PERSISTENCE_FAILED_CODE } from './session-writer.js';

/** True when `error` means a message could not be saved. */
export function isPersistenceFailure(error: unknown): boolean {
  return hasErrorCode(error, PERSISTENCE_FAILED_CODE);
}
