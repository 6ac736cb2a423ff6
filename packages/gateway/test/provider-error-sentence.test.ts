import { describe, expect, it } from 'vitest';
import {
  PROVIDER_ERROR_SENTENCES,
  providerErrorSentence,
} from '../src/delivery/provider-error-sentence.js';

const S = PROVIDER_ERROR_SENTENCES;

describe('providerErrorSentence', () => {
  it('says a rate limit in one sentence', () => {
    expect(providerErrorSentence({ code: 'provider.rate_limit', message: 'x' })).toBe(
      'The model provider is rate-limiting requests; try again in a minute.',
    );
    expect(
      providerErrorSentence({
        message: 'Error code: 429 - {"error":{"message":"Too Many Requests"}}',
      }),
    ).toBe(S.rateLimit);
  });

  it.each([
    [{ code: 'provider.auth', message: '401' }, S.auth],
    [{ code: 'provider.auth_permanent', message: 'revoked' }, S.auth],
    [{ code: 'provider.missing_api_key', message: 'set OPENAI_API_KEY' }, S.auth],
    [{ message: 'Incorrect API key provided: sk-proj-****abcd' }, S.auth],
    [{ code: 'provider.context_overflow', message: 'too long' }, S.contextTooLong],
    [{ message: "This model's maximum context length is 128000 tokens" }, S.contextTooLong],
    [{ code: 'provider.timeout', message: 'stale stream' }, S.timeout],
    [{ message: 'ETIMEDOUT 10.0.0.1:443' }, S.timeout],
    [{ code: 'provider.server_error', message: '500' }, S.serverError],
    [{ code: 'provider.overloaded', message: '529' }, S.overloaded],
    [{ message: '502 Bad Gateway' }, S.serverError],
    [{ code: 'provider.billing', message: 'insufficient_quota' }, S.billing],
    [{ code: 'provider.model_not_found', message: 'no such model' }, S.modelNotFound],
  ])('maps %j to its sentence', (error, sentence) => {
    expect(providerErrorSentence(error)).toBe(sentence);
  });

  it('never passes on a stack trace, request id or key', () => {
    const ugly = [
      'TypeError: Cannot read properties of undefined (reading "choices")',
      '    at parse (/srv/hermes/node_modules/openai/core.js:12:7)',
      'request_id: req_8f7a6b5c4d3e2f1a, key sk-proj-Abcdefghijklmnopqrstuvwx0123',
    ].join('\n');
    const sentence = providerErrorSentence({ code: 'provider.unknown', message: ugly });
    expect(sentence).toBe(S.unknown);
    for (const leak of ['at parse', 'req_8f7a', 'sk-proj', 'TypeError']) {
      expect(sentence).not.toContain(leak);
    }
  });

  it("keeps the gateway's own one-line messages, redacted", () => {
    expect(
      providerErrorSentence({
        code: 'gateway.shutting_down',
        message: 'The gateway is restarting; send that again in a moment.',
      }),
    ).toBe('The gateway is restarting; send that again in a moment.');
    expect(
      providerErrorSentence({
        code: 'gateway.bad_model',
        message: 'No model named "x" (key sk-ant-abcdefghijklmnop1234).',
      }),
    ).not.toContain('sk-ant-abcdefghijklmnop1234');
    expect(
      providerErrorSentence({ code: 'gateway.crash', message: 'boom\n    at f (/x.js:1:1)' }),
    ).toBe(S.unknown);
  });

  it('is idempotent on its own sentences (the pipeline may already have translated)', () => {
    for (const sentence of Object.values(S)) {
      expect(providerErrorSentence({ message: sentence })).toBe(sentence);
    }
  });
});
