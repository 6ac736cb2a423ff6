/**
 * Who may call the API server: the bearer key (compared in constant time) and the browser
 * origins allowed by `cors_origins` (none by default, as in Hermes).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { ApiError } from './api-error.js';

/** Request headers a browser may send cross-origin (answered in a preflight). */
const ALLOWED_HEADERS = 'authorization, content-type, x-hermes-session-id, last-event-id';
/** Response headers a browser script may read. */
const EXPOSED_HEADERS = 'x-hermes-session-id, retry-after';

/** Hashing both sides first gives equal-length inputs, so the length leaks nothing either. */
function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** Checks `Authorization: Bearer <key>` against the configured key. */
export class BearerAuth {
  readonly #expected: Buffer;

  constructor(key: string) {
    this.#expected = digest(key);
  }

  /** @throws ApiError 401 in OpenAI's shape when the key is missing or wrong. */
  check(req: IncomingMessage): void {
    const header = req.headers.authorization ?? '';
    const match = /^Bearer\s+(.+)$/i.exec(header.trim());
    const given = match?.[1]?.trim() ?? '';
    if (given && timingSafeEqual(digest(given), this.#expected)) return;
    throw new ApiError(
      401,
      given
        ? 'Incorrect API key provided. Use the key in API_SERVER_KEY.'
        : "You didn't provide an API key. Send it as `Authorization: Bearer <API_SERVER_KEY>`.",
      { code: 'invalid_api_key', headers: { 'www-authenticate': 'Bearer' } },
    );
  }
}

/** The outcome of looking at a request's `Origin`. */
export type OriginVerdict =
  /** No `Origin` header: not a browser's cross-origin call. */
  | { readonly kind: 'none' }
  | { readonly kind: 'allowed'; readonly headers: Readonly<Record<string, string>> }
  | { readonly kind: 'denied' };

/** Applies `cors_origins`: an exact origin list, or `*` for any. */
export class CorsPolicy {
  readonly #origins: ReadonlySet<string>;
  readonly #any: boolean;

  constructor(origins: readonly string[]) {
    this.#origins = new Set(origins);
    this.#any = this.#origins.has('*');
  }

  /** Judges the request's `Origin`; an allowed one gets the headers to answer with. */
  judge(req: IncomingMessage): OriginVerdict {
    const origin = req.headers.origin;
    if (origin === undefined) return { kind: 'none' };
    if (!this.#any && !this.#origins.has(origin.replace(/\/+$/, ''))) return { kind: 'denied' };
    return {
      kind: 'allowed',
      headers: {
        'access-control-allow-origin': origin,
        'access-control-expose-headers': EXPOSED_HEADERS,
        vary: 'Origin',
      },
    };
  }

  /** The extra headers of a preflight (`OPTIONS`) answer for an allowed origin. */
  preflightHeaders(): Readonly<Record<string, string>> {
    return {
      'access-control-allow-methods': 'GET, POST, PATCH, DELETE, OPTIONS',
      'access-control-allow-headers': ALLOWED_HEADERS,
      'access-control-max-age': '600',
    };
  }
}

/**
 * Browsers send `Origin` on cross-origin calls; one not in `cors_origins` is refused outright
 * (Hermes does the same), so a page elsewhere cannot even probe the server.
 */
export function originDenied(): ApiError {
  return new ApiError(403, 'This origin is not allowed to call the API server (cors_origins).', {
    code: 'origin_not_allowed',
  });
}
