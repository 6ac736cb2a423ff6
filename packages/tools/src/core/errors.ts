/** The error core tools throw for a call that cannot be done as asked. */
import { HermesError } from '@hermes/protocol';

/** The code of every {@link CoreToolError}. */
export const CORE_TOOL_ERROR_CODE = 'tools.core_tool_failed';

/**
 * A core tool refused or failed a call: bad path, no match, blocked write. The message is meant
 * for the model, so it says what was wrong and what to do instead. Dispatch sanitizes it into a
 * `[TOOL_ERROR]` string.
 */
export class CoreToolError extends HermesError {
  constructor(message: string, details?: Readonly<Record<string, unknown>>) {
    super(CORE_TOOL_ERROR_CODE, message, details === undefined ? {} : { details });
  }
}
