/**
 * The base error of every Hermes package. Callers branch on the stable string `code`, never on
 * the message, and recognize a Hermes error with {@link isHermesError} rather than `instanceof`,
 * because a dependency tree can hold two copies of this package.
 */

/** Marks Hermes errors across package copies: `Symbol.for` is shared by the whole process. */
const HERMES_ERROR_BRAND = Symbol.for('@hermes/protocol:HermesError');

/** Codes are lower-case dotted words, `<area>.<what>`, for example `state.schema_too_new`. */
export const ERROR_CODE_PATTERN = /^[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+$/;

/** Extra information attached to a {@link HermesError}. */
export interface HermesErrorOptions {
  /** The underlying error, kept for diagnostics. */
  readonly cause?: unknown;
  /** Structured, secret-free facts about the failure. */
  readonly details?: Readonly<Record<string, unknown>>;
  /** Whether trying the same thing again may succeed. Defaults to `false`. */
  readonly retryable?: boolean;
}

/** A failure with a stable machine-readable `code` and a human message that says what to do. */
export class HermesError extends Error {
  /** Stable identifier such as `provider.rate_limited`; part of the public API. */
  readonly code: string;
  /** Structured, secret-free facts about the failure. */
  readonly details: Readonly<Record<string, unknown>>;
  /** Whether trying the same thing again may succeed. */
  readonly retryable: boolean;

  constructor(code: string, message: string, options: HermesErrorOptions = {}) {
    if (!ERROR_CODE_PATTERN.test(code)) {
      throw new TypeError(
        `HermesError code "${code}" is invalid: use lower-case dotted words like "area.what"`,
      );
    }
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.details = options.details ?? {};
    this.retryable = options.retryable ?? false;
    Object.defineProperty(this, HERMES_ERROR_BRAND, { value: true, enumerable: false });
  }

  /** A plain, serializable view (no stack, no cause) safe to send over the wire. */
  toJSON(): { name: string; code: string; message: string; retryable: boolean } {
    return { name: this.name, code: this.code, message: this.message, retryable: this.retryable };
  }
}

/**
 * True when `value` is a {@link HermesError} from any copy of this package. Checks the
 * process-wide brand, then the shape, never the prototype chain.
 */
export function isHermesError(value: unknown): value is HermesError {
  if (typeof value !== 'object' || value === null) return false;
  const branded = (value as Record<symbol, unknown>)[HERMES_ERROR_BRAND] === true;
  const code = (value as { code?: unknown }).code;
  return branded && typeof code === 'string' && value instanceof Error;
}

/** True when `value` is a Hermes error carrying exactly `code`. */
export function hasErrorCode(value: unknown, code: string): value is HermesError {
  return isHermesError(value) && value.code === code;
}
