/**
 * The classifier on everything that is not an SDK error — plain objects, Node system errors,
 * strings, odd bodies — plus `retryAfterMs` parsing and the redacted message.
 */
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { type ErrorContext, ProviderError } from '../src/classified-error.js';
import { classifyApiError } from '../src/classify-error.js';
import { AbortedWithPartialError } from '../src/stream/interruption.js';
import { StaleStreamError } from '../src/stream/stale-watchdog.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const ctx: ErrorContext = { provider: 'openai-chat', model: 'gpt-test', approxPromptTokens: 2_000 };
const bigCtx: ErrorContext = { ...ctx, approxPromptTokens: 190_000, contextLength: 200_000 };
const classify = (error: unknown, context: ErrorContext = ctx) =>
  classifyApiError(error, context, { now: () => NOW });
const sysError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('classifyApiError on plain inputs', () => {
  it.each([
    [
      'plain {status, body} 503',
      { status: 503, body: { error: { message: 'busy' } } },
      'overloaded',
    ],
    ['plain {statusCode} 401', { statusCode: 401, message: 'nope' }, 'auth'],
    [
      'axios-like response.status 429',
      { response: { status: 429, data: { error: 'slow down' } } },
      'rate_limit',
    ],
    [
      'JSON string body',
      { status: 400, body: '{"error":{"code":"context_length_exceeded","message":"too big"}}' },
      'context_overflow',
    ],
    [
      'HTML error page body',
      { status: 502, body: '<html><h1>502 Bad Gateway</h1></html>' },
      'server_error',
    ],
    ['empty body 500', { status: 500, body: '' }, 'server_error'],
    [
      'bare 404 (wrong path)',
      { status: 404, body: { error: { message: 'Not Found' } } },
      'unknown',
    ],
    [
      '403 without permission words',
      { status: 403, body: { error: { message: 'Key suspended by admin.' } } },
      'auth',
    ],
    [
      '403 key limit is billing',
      { status: 403, body: { error: { message: 'Key limit exceeded' } } },
      'billing',
    ],
    ['422', { status: 422, body: { error: { message: 'unprocessable' } } }, 'format_error'],
    [
      '5xx unsupported parameter',
      { status: 502, body: { error: { message: 'Unsupported parameter: foo' } } },
      'format_error',
    ],
    [
      '400 unsupported parameter mentioning max_tokens',
      {
        status: 400,
        body: {
          error: {
            message: "Unsupported parameter: 'max_tokens' is not supported with this model.",
          },
        },
      },
      'format_error',
    ],
    ['ECONNREFUSED', sysError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:9'), 'server_error'],
    ['ETIMEDOUT', sysError('ETIMEDOUT', 'connect ETIMEDOUT'), 'timeout'],
    [
      'undici headers timeout in fetch cause',
      new TypeError('fetch failed', {
        cause: sysError('UND_ERR_HEADERS_TIMEOUT', 'Headers Timeout Error'),
      }),
      'timeout',
    ],
    [
      'AbortSignal.timeout reason',
      new DOMException('The operation was aborted due to timeout', 'TimeoutError'),
      'timeout',
    ],
    ['socket hang up', new Error('socket hang up'), 'server_error'],
    ['string rate limit', 'Rate limit exceeded, slow down', 'rate_limit'],
    ['string context', 'Error: prompt is too long', 'context_overflow'],
    [
      'anthropic context limit',
      {
        status: 400,
        body: {
          error: {
            message:
              'input length and `max_tokens` exceed context limit: 195000 + 8192 > 200000, decrease input length or `max_tokens` and try again',
          },
        },
      },
      'context_overflow',
    ],
    ['string usage limit with window', 'usage limit reached, resets in 2 hours', 'rate_limit'],
    ['string quota without window', 'quota exhausted for this account', 'billing'],
    ['string unknown model', 'unknown model: foo-bar', 'model_not_found'],
    ['string overloaded', 'Server overloaded', 'overloaded'],
    ['message-only invalid api key', new Error('Invalid API key'), 'auth'],
    ['message-only permission', new Error('permission denied for this project'), 'auth_permanent'],
    ['nothing recognizable', new Error('something odd happened'), 'unknown'],
    ["the watchdog's StaleStreamError", new StaleStreamError(180_000, 181_000), 'timeout'],
    ['an abort that kept partial text', new AbortedWithPartialError('Hel'), 'aborted'],
    ['null', null, 'unknown'],
    ['a number', 42, 'unknown'],
  ])('%s → %s', (_name, error, reason) => {
    expect(classify(error).reason).toBe(reason);
  });

  it('a bare 400 on a large session is a context overflow, on a small one a format error', () => {
    const bare = {
      status: 400,
      body: { type: 'error', error: { type: 'invalid_request_error', message: 'Error' } },
    };
    expect(classify(bare, bigCtx).reason).toBe('context_overflow');
    expect(classify(bare, ctx).reason).toBe('format_error');
  });

  it('a Cloudflare 502 on a large session is a context overflow', () => {
    const page = { status: 502, body: 'error code: 502 — cloudflare origin_bad_gateway' };
    expect(classify(page, bigCtx).reason).toBe('context_overflow');
    expect(classify(page, ctx).reason).toBe('server_error');
  });

  it('a drop counts as large by message count on a small window', () => {
    const many: ErrorContext = {
      provider: 'x',
      model: 'y',
      messageCount: 250,
      contextLength: 128_000,
    };
    expect(classify(sysError('ECONNRESET', 'read ECONNRESET'), many).reason).toBe(
      'context_overflow',
    );
    const huge: ErrorContext = {
      provider: 'x',
      model: 'y',
      messageCount: 250,
      contextLength: 1_000_000,
    };
    expect(classify(sysError('ECONNRESET', 'read ECONNRESET'), huge).reason).toBe('server_error');
  });

  it("returns a ProviderError's verdict unchanged", () => {
    const inner = classify({ status: 429, body: { error: { message: 'rate limit' } } });
    expect(classify(new ProviderError(inner))).toBe(inner);
  });

  it('survives a cyclic cause chain', () => {
    const a = new Error('a') as Error & { cause?: unknown };
    const b = new Error('b', { cause: a });
    a.cause = b;
    expect(classify(a).reason).toBe('unknown');
  });
});

describe('retryAfterMs', () => {
  const rl = (headers: Record<string, string>, message = 'rate limited') =>
    OpenAI.APIError.generate(429, { error: { message } }, undefined, new Headers(headers));

  it.each([
    ['retry-after seconds', { 'retry-after': '12' }, 12_000],
    ['retry-after fractional seconds', { 'retry-after': '1.5' }, 1_500],
    ['retry-after HTTP date', { 'retry-after': new Date(NOW + 90_000).toUTCString() }, 90_000],
    [
      'retry-after date in the past clamps to 0',
      { 'retry-after': new Date(NOW - 5_000).toUTCString() },
      0,
    ],
    ['retry-after-ms wins over retry-after', { 'retry-after-ms': '250', 'retry-after': '9' }, 250],
    [
      'anthropic reset of the exhausted limit only',
      {
        'anthropic-ratelimit-tokens-remaining': '0',
        'anthropic-ratelimit-tokens-reset': new Date(NOW + 42_000).toISOString(),
        'anthropic-ratelimit-requests-remaining': '17',
        'anthropic-ratelimit-requests-reset': new Date(NOW + 99_000).toISOString(),
      },
      42_000,
    ],
  ])('%s', (_name, headers, expected) => {
    expect(classify(rl(headers)).retryAfterMs).toBe(expected);
  });

  it.each([
    ['Please try again in 20ms.', 20],
    ['Please try again in 6.5s.', 6_500],
    ['Please try again in 1m30s.', 90_000],
    ['try again in 30 seconds', 30_000],
    ['Usage limit; try again in 5 minutes', 300_000],
    ['limit resets in 2 hours and 10 minutes', 7_800_000],
    ['quota resets at 2026-03-01T13:00:00Z', 3_600_000],
    ['quota resets at 1772366460', 60_000],
  ])('from the message %j', (message, expected) => {
    expect(classify(rl({}, message)).retryAfterMs).toBe(expected);
  });

  it('is absent when nothing says how long', () => {
    expect(classify(rl({}, 'Please try again later.')).retryAfterMs).toBeUndefined();
    expect('retryAfterMs' in classify(rl({}))).toBe(false);
  });
});

describe('the short message', () => {
  const key = 'sk-proj-Zq8vN3kLm4Xp7Rt2Yw9Bc6Df1Gh5Jk0Lz';

  it('never contains a key the error message carried', () => {
    const error = OpenAI.APIError.generate(
      401,
      {
        error: {
          message: `Incorrect API key provided: ${key}. Find your key at https://x.test`,
          code: 'invalid_api_key',
        },
      },
      undefined,
      new Headers(),
    );
    const result = classify(error);
    expect(result.message).not.toContain(key);
    expect(result.message).not.toContain(key.slice(3, 20));
    expect(result.message).toContain('sk-…5Jk0Lz'.slice(0, 3));
    expect(new ProviderError(result).message).not.toContain(key);
  });

  it('redacts a key carried by a 1 MB message', () => {
    const error = new Error(`${'x '.repeat(500_000)} ${key}`);
    const result = classify({
      status: 500,
      body: { error: { message: `${key} ${error.message}` } },
    });
    expect(result.message).not.toContain(key);
    expect(result.message.startsWith('sk-…')).toBe(true);
    // Cut only after redaction: a key straddling any internal scan limit never leaks a piece.
    const padded = classify(new Error(`${' '.repeat(8_190)}${key}`));
    expect(padded.message).toBe(`sk-…${key.slice(-4)}`);
  });

  it('masks configured secrets that match no pattern', () => {
    const secret = 'plainsecretvalue123';
    const result = classifyApiError(new Error(`auth failed for ${secret}`), ctx, {
      secrets: [secret],
    });
    expect(result.message).not.toContain(secret);
  });

  it('is flattened and at most 300 characters', () => {
    const result = classify({
      status: 500,
      body: { error: { message: `a\n\n  b ${'x'.repeat(2000)}` } },
    });
    expect(result.message.startsWith('a b x')).toBe(true);
    expect(result.message.length).toBe(300);
    expect(result.message.endsWith('…')).toBe(true);
  });

  it('falls back to the status when the body says nothing', () => {
    expect(classify({ status: 503 }).message).toBe('HTTP 503');
  });
});
