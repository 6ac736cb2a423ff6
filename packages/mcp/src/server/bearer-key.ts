/**
 * The bearer key that guards `hermes mcp serve --http`. Anyone holding it can run the agent (and
 * through it, commands), so a short key is refused outright and the comparison takes the same
 * time whatever the guess.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

/** Shortest key `serveHttp` accepts (as the gateway's API server asks of `API_SERVER_KEY`). */
export const MIN_SERVER_KEY_LENGTH = 16;

/** Why `key` cannot guard a server, or `undefined` when it can. */
export function serverKeyProblem(key: string | undefined): string | undefined {
  if (key === undefined || key.length === 0) return 'a bearer key is required';
  if (key.length < MIN_SERVER_KEY_LENGTH) {
    return `the bearer key must be at least ${MIN_SERVER_KEY_LENGTH} characters (got ${key.length})`;
  }
  if (/\s/.test(key)) return 'the bearer key must not contain spaces';
  return undefined;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/**
 * A checker of `Authorization` header values against `key`: true only for `Bearer <key>`.
 * Both sides are hashed first, so the constant-time compare sees equal lengths.
 */
export function bearerChecker(key: string): (header: string | undefined) => boolean {
  const expected = digest(key);
  return (header) => {
    const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header ?? '');
    return match?.[1] !== undefined && timingSafeEqual(digest(match[1]), expected);
  };
}
