/**
 * Every fault issue 3 lists, raised as the official SDKs raise it (their own error classes, built
 * by their own `APIError.generate` from a wire body and headers), mapped to the full verdict.
 */
import Anthropic from '@anthropic-ai/sdk';
import { HermesError } from '@hermes/protocol';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { ErrorContext, FailureReason } from '../src/classified-error.js';
import { classifyApiError } from '../src/classify-error.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const small: ErrorContext = { provider: 'test', model: 'm', approxPromptTokens: 4_000 };
const large: ErrorContext = {
  provider: 'test',
  model: 'm',
  approxPromptTokens: 150_000,
  contextLength: 200_000,
  messageCount: 120,
};

/**
 * `[retryable, shouldCompress, shouldRotateCredential, shouldFallback]` per reason, spelled out
 * independently of the implementation's own table.
 */
// biome-ignore format: one reason per line reads as a table
const EXPECTED: Record<FailureReason, readonly [boolean, boolean, boolean, boolean]> = {
  auth:               [false, false, true,  true ],
  auth_permanent:     [false, false, false, true ],
  billing:            [false, false, true,  true ],
  rate_limit:         [true,  false, true,  true ],
  overloaded:         [true,  false, false, true ],
  server_error:       [true,  false, false, true ],
  timeout:            [true,  false, false, true ],
  context_overflow:   [true,  true,  false, false],
  payload_too_large:  [true,  true,  false, false],
  model_not_found:    [false, false, false, true ],
  format_error:       [false, false, false, false],
  thinking_signature: [true,  false, false, false],
  long_context_tier:  [true,  true,  false, false],
  aborted:            [false, false, false, false],
  unknown:            [true,  false, false, true ],
};

const oa = (status: number, error: object, headers: Record<string, string> = {}) =>
  OpenAI.APIError.generate(status, { error }, undefined, new Headers(headers));
const an = (status: number, type: string, message: string, headers: Record<string, string> = {}) =>
  Anthropic.APIError.generate(
    status,
    { type: 'error', error: { type, message } },
    undefined,
    new Headers(headers),
  );
const openRouter = (status: number | undefined, upstream: object) => {
  const error = {
    message: 'Provider returned error',
    code: 429,
    metadata: { raw: JSON.stringify(upstream), provider_name: 'Anthropic' },
  };
  return status === undefined
    ? new OpenAI.APIError(undefined, error, undefined, new Headers())
    : OpenAI.APIError.generate(status, { error }, undefined, new Headers());
};
const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
const fetchReset = () =>
  new OpenAI.APIConnectionError({ cause: new TypeError('fetch failed', { cause: reset }) });

const MSG = {
  tpm: 'Rate limit reached for gpt-4o on tokens per min (TPM). Please try again in 2s.',
  rpm: 'This request would exceed the rate limit for your organization of 50 requests per minute.',
  usage: 'Usage limit reached for this key. Please try again in 5 minutes.',
  quota: 'You exceeded your current quota, please check your plan and billing details.',
  gpt9: 'The model `gpt-9` does not exist or you do not have access to it.',
  ctxOpenAI:
    "This model's maximum context length is 128000 tokens. However, your messages resulted in " +
    '131000 tokens. Please reduce the length of the messages.',
  ctxAnthropic: 'prompt is too long: 208000 tokens > 200000 maximum',
  thinking: 'messages.1.content.0: Invalid `signature` in `thinking` block',
  permission: 'Your API key does not have permission to use the specified resource.',
  busy: 'The service may be temporarily overloaded, please try again later',
};
const socketClosed = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
const undiciTerminated = () =>
  new Anthropic.APIConnectionError({ cause: new TypeError('terminated', { cause: socketClosed }) });
const stale = () =>
  new HermesError('provider.stale_stream', 'No chunk for 180 s.', {
    cause: new OpenAI.APIUserAbortError(),
  });
const anthropicStreamEvent = (type: string, message: string) =>
  new Anthropic.APIError(
    undefined,
    { type: 'error', error: { type, message } },
    undefined,
    new Headers(),
  );
const ra = (seconds: string) => ({ 'retry-after': seconds });

/** name, the error, expected reason, expected status, expected retryAfterMs, context. */
type Fault = [
  string,
  unknown,
  FailureReason,
  (number | undefined)?,
  (number | undefined)?,
  ErrorContext?,
];

// biome-ignore format: one fault per line reads as a table
const FAULTS: Fault[] = [
  ['openai 429 with retry-after', oa(429, { message: MSG.tpm, type: 'tokens', code: 'rate_limit_exceeded' }, ra('7')), 'rate_limit', 429, 7_000],
  ['anthropic 429 with retry-after', an(429, 'rate_limit_error', MSG.rpm, ra('30')), 'rate_limit', 429, 30_000],
  ['openai 401', oa(401, { message: 'Incorrect API key provided.', code: 'invalid_api_key' }), 'auth', 401],
  ['anthropic 401', an(401, 'authentication_error', 'invalid x-api-key'), 'auth', 401],
  ['anthropic 402 usage limit, try again in 5 minutes', an(402, 'billing_error', MSG.usage), 'rate_limit', 402, 300_000],
  ['openai-compatible 402 usage limit, resets at', oa(402, { message: 'Daily usage limit exceeded; resets at 2026-03-01T12:30:00Z' }), 'rate_limit', 402, 1_800_000],
  ['anthropic 402 insufficient credits', an(402, 'billing_error', 'Insufficient credits. Add more at https://example.test/billing'), 'billing', 402],
  ['openai-compatible 402 plain payment required', oa(402, { message: 'Payment Required' }), 'billing', 402],
  ['openai 429 insufficient_quota is billing', oa(429, { message: MSG.quota, type: 'insufficient_quota', code: 'insufficient_quota' }), 'billing', 429],
  ['openai 404 model', oa(404, { message: MSG.gpt9, type: 'invalid_request_error', code: 'model_not_found' }), 'model_not_found', 404],
  ['anthropic 404 model', an(404, 'not_found_error', 'model: claude-nine'), 'model_not_found', 404],
  ['openai 413', oa(413, { message: 'Request Entity Too Large' }), 'payload_too_large', 413],
  ['anthropic 413', an(413, 'request_too_large', 'Request exceeds the maximum allowed number of bytes.'), 'payload_too_large', 413],
  ['openai 400 context length', oa(400, { message: MSG.ctxOpenAI, type: 'invalid_request_error', code: 'context_length_exceeded' }), 'context_overflow', 400],
  ['anthropic 400 prompt is too long', an(400, 'invalid_request_error', MSG.ctxAnthropic), 'context_overflow', 400],
  ['openai 400 plain', oa(400, { message: "Invalid value for 'temperature'.", param: 'temperature', code: 'invalid_value' }), 'format_error', 400],
  ['anthropic 400 plain', an(400, 'invalid_request_error', 'messages: roles must alternate'), 'format_error', 400],
  ['openai 500', oa(500, { message: 'The server had an error while processing your request.', type: 'server_error' }), 'server_error', 500],
  ['anthropic 500', an(500, 'api_error', 'Internal server error'), 'server_error', 500],
  ['openai 502', oa(502, { message: 'Bad gateway' }), 'server_error', 502],
  ['anthropic 504', an(504, 'timeout_error', 'Gateway timeout'), 'server_error', 504],
  ['openai 503', oa(503, { message: 'The engine is currently overloaded, please try again later' }), 'overloaded', 503],
  ['anthropic 503', an(503, 'api_error', 'Service unavailable'), 'overloaded', 503],
  ['anthropic 529', an(529, 'overloaded_error', 'Overloaded'), 'overloaded', 529],
  ['429 temporarily overloaded (no rotation)', oa(429, { message: MSG.busy, code: '1305' }), 'overloaded', 429],
  ['anthropic 408', an(408, 'timeout_error', 'Request timed out'), 'timeout', 408],
  ['openai 408', oa(408, { message: 'Request timeout' }), 'timeout', 408],
  ['openai 403 not allowed', oa(403, { message: 'You are not allowed to sample from this model' }), 'auth_permanent', 403],
  ['anthropic 403 permission', an(403, 'permission_error', MSG.permission), 'auth_permanent', 403],
  ['stale stream (Hermes code over an SDK abort)', stale(), 'timeout'],
  ['openai connect timeout', new OpenAI.APIConnectionTimeoutError(), 'timeout'],
  ['anthropic connect timeout', new Anthropic.APIConnectionTimeoutError(), 'timeout'],
  ['openai connection reset, large session', fetchReset(), 'context_overflow', undefined, undefined, large],
  ['openai connection reset, small session', fetchReset(), 'server_error'],
  ['anthropic stream terminated, large session', undiciTerminated(), 'context_overflow', undefined, undefined, large],
  ['anthropic stream terminated, small session', undiciTerminated(), 'server_error'],
  ['DOM AbortError', new DOMException('This operation was aborted', 'AbortError'), 'aborted'],
  ['openai APIUserAbortError', new OpenAI.APIUserAbortError(), 'aborted'],
  ['anthropic APIUserAbortError', new Anthropic.APIUserAbortError(), 'aborted'],
  ['anthropic thinking signature', an(400, 'invalid_request_error', MSG.thinking), 'thinking_signature', 400],
  ['anthropic long-context tier (429 extra usage)', an(429, 'rate_limit_error', 'Extra usage is required for long context requests.'), 'long_context_tier', 429],
  ['anthropic 1M-context beta refused', an(400, 'invalid_request_error', 'The long context beta is not yet available for this subscription.'), 'long_context_tier', 400],
  ['openrouter-wrapped upstream 429', openRouter(429, { type: 'error', error: { type: 'rate_limit_error', message: MSG.rpm } }), 'rate_limit', 429],
  ['openrouter-wrapped 429 mid-stream (no HTTP status)', openRouter(undefined, { error: { message: 'Rate limit exceeded: free-models-per-min' } }), 'rate_limit', 429],
  ['openrouter-wrapped thinking signature at 400', openRouter(400, { type: 'error', error: { type: 'invalid_request_error', message: MSG.thinking } }), 'thinking_signature', 400],
  ['openrouter-wrapped context overflow at 400', openRouter(400, { error: { message: MSG.ctxAnthropic } }), 'context_overflow', 400],
  ['anthropic mid-stream overloaded event (no HTTP status)', anthropicStreamEvent('overloaded_error', 'Overloaded'), 'overloaded'],
];

describe('classifyApiError on the official SDK errors', () => {
  it.each(FAULTS)('%s', (_name, error, reason, status, retryAfterMs, context) => {
    const result = classifyApiError(error, context ?? small, { now: () => NOW });
    expect(result.reason).toBe(reason);
    const flags = [
      result.retryable,
      result.shouldCompress,
      result.shouldRotateCredential,
      result.shouldFallback,
    ];
    expect(flags).toEqual(EXPECTED[reason]);
    expect(result.status).toBe(status);
    expect(result.retryAfterMs).toBe(retryAfterMs);
    expect(result.message.length).toBeGreaterThan(0);
    expect(result.message.length).toBeLessThanOrEqual(300);
  });

  it('covers every failure reason at least once', () => {
    const seen = new Set(FAULTS.map((fault) => fault[2]));
    const missing = Object.keys(EXPECTED).filter((r) => !seen.has(r as FailureReason));
    expect(missing).toEqual(['unknown']);
  });

  it("uses the body message, not the SDK's JSON dump, as the short message", () => {
    const result = classifyApiError(an(529, 'overloaded_error', 'Overloaded'), small);
    expect(result.message).toBe('Overloaded');
    const wrapped = classifyApiError(
      openRouter(429, { error: { message: 'Upstream says slow down' } }),
      small,
    );
    expect(wrapped.message).toBe('Upstream says slow down');
  });
});
