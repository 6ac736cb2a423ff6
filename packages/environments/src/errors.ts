/** Failures of the environment itself, as opposed to failures of the command it ran. */
import { HermesError, type HermesErrorOptions, hasErrorCode } from '@hermes/protocol';

/** The code of every {@link EnvironmentConnectionError}. */
export const ENVIRONMENT_CONNECTION_ERROR_CODE = 'environment.connection';

/** Options of an {@link EnvironmentConnectionError}. */
export interface EnvironmentConnectionErrorOptions extends Omit<HermesErrorOptions, 'retryable'> {
  /** What to do about it, for example "the container is restarting; try again in a minute". */
  readonly retryHint?: string;
  /** Whether trying again may succeed. Defaults to `true`: connections usually come back. */
  readonly retryable?: boolean;
}

/**
 * The environment could not run the command at all: the ssh connection dropped, the container
 * is gone, the sandbox failed to start. This is infrastructure, not the command's fault, so the
 * model is told not to try to "fix" its command. A command that runs and exits non-zero is never
 * this error; it is an ordinary result with its exit code.
 */
export class EnvironmentConnectionError extends HermesError {
  /** What to do about it, or `''` when there is nothing useful to say. */
  readonly retryHint: string;

  constructor(reason: string, options: EnvironmentConnectionErrorOptions = {}) {
    const { retryHint = '', retryable = true, details, cause } = options;
    super(ENVIRONMENT_CONNECTION_ERROR_CODE, reason, {
      retryable,
      details: { ...details, ...(retryHint ? { retryHint } : {}) },
      ...(cause === undefined ? {} : { cause }),
    });
    this.retryHint = retryHint;
  }
}

/** True when `value` is an {@link EnvironmentConnectionError} from any copy of this package. */
export function isEnvironmentConnectionError(value: unknown): value is EnvironmentConnectionError {
  return hasErrorCode(value, ENVIRONMENT_CONNECTION_ERROR_CODE);
}
