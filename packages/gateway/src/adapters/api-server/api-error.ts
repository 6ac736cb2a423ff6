/**
 * Errors as OpenAI shapes them, `{error: {message, type, param, code}}`, so every OpenAI client
 * surfaces ours the way it surfaces the real service's.
 */
import type { z } from 'zod';

/** The `error` object of an OpenAI error body. */
export interface OpenAiErrorBody {
  readonly error: {
    readonly message: string;
    readonly type: string;
    readonly param: string | null;
    readonly code: string | null;
  };
}

/** A request the server answers with an error status, thrown by route handlers. */
export class ApiError extends Error {
  readonly status: number;
  readonly type: string;
  readonly param: string | null;
  readonly code: string | null;
  /** Extra response headers (`Retry-After`, `WWW-Authenticate`). */
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    status: number,
    message: string,
    options: {
      readonly type?: string;
      readonly param?: string | null;
      readonly code?: string | null;
      readonly headers?: Readonly<Record<string, string>>;
    } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.type = options.type ?? defaultType(status);
    this.param = options.param ?? null;
    this.code = options.code ?? null;
    this.headers = options.headers ?? {};
  }

  /** The body to send. */
  body(): OpenAiErrorBody {
    return {
      error: { message: this.message, type: this.type, param: this.param, code: this.code },
    };
  }
}

/** The `type` OpenAI uses for each status. */
function defaultType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

/** A 404 for a path no route serves. */
export function unknownRoute(method: string, path: string): ApiError {
  return new ApiError(404, `Unknown request URL: ${method} ${path}.`, {
    code: 'unknown_url',
  });
}

/** The value at `path` inside `input`, to tell a missing field from a wrong one. */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value: unknown = input;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function dotted(path: readonly PropertyKey[]): string {
  return path
    .map((key, index) => (typeof key === 'number' ? `[${key}]` : index ? `.${String(key)}` : key))
    .join('');
}

/**
 * Parses `input` with `schema`, or throws a 400 naming the first bad field the way OpenAI does:
 * `missing_required_parameter` when it is absent, `invalid_type` / `invalid_value` otherwise.
 */
export function parseBody<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue?.path ?? [];
  const param = path.length ? dotted(path) : null;
  if (issue && path.length && valueAt(input, path) === undefined) {
    throw new ApiError(400, `Missing required parameter: '${param}'.`, {
      param,
      code: 'missing_required_parameter',
    });
  }
  const where = param ? `'${param}'` : 'the request body';
  throw new ApiError(400, `Invalid value for ${where}: ${issue?.message ?? 'invalid input'}.`, {
    param,
    code: issue?.code === 'invalid_type' ? 'invalid_type' : 'invalid_value',
  });
}

/** Status and type for a turn that produced no answer, from the pipeline's error code. */
const FAILURE_STATUS: ReadonlyArray<readonly [RegExp, number]> = [
  [/shutting_down|draining|unavailable|stopp/, 503],
  [/busy|rate_limit|too_many|queue_full/, 429],
  [/unauthori[sz]ed|not_allowed|forbidden|denied|refused|pairing/, 403],
  [/not_found|unknown_session/, 404],
  [/invalid|unknown_command|validation|bad_request|usage/, 400],
];

/**
 * The answer to a turn the pipeline failed (`TurnSink.fail`): a status chosen from the words of
 * its code (503 shutting down, 429 busy, 403 refused, 404 unknown session, 400 bad input, else
 * 500) and the code itself, so clients can branch on it.
 */
export function turnFailure(error: { readonly code: string; readonly message: string }): ApiError {
  const status = FAILURE_STATUS.find(([pattern]) => pattern.test(error.code))?.[1] ?? 500;
  return new ApiError(status, error.message, {
    code: error.code,
    ...(status === 503 || status === 429 ? { headers: { 'retry-after': '5' } } : {}),
  });
}
