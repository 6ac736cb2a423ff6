/** Errors from toolset registration and resolution. */
import { HermesError } from '@hermes/protocol';

/** The code of every {@link ToolsetError}. */
export const TOOLSET_ERROR_CODE = 'tools.invalid_toolset';

/**
 * A toolset could not be registered or resolved: unknown name, an include cycle, a bad
 * definition. The message names the toolset and what to change.
 */
export class ToolsetError extends HermesError {
  constructor(message: string, details: Readonly<Record<string, unknown>> = {}) {
    super(TOOLSET_ERROR_CODE, message, { details });
  }
}
