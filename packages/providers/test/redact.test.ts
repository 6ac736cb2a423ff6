import { describe, expect, it } from 'vitest';
import { maskSecret, REDACTED, redactHeaders, redactSecrets } from '../src/redact.js';

const OPENAI = 'sk-proj-Zq8vN3kLm4Xp7Rt2Yw9Bc6Df1Gh5Jk0LzAbCd';
const ANTHROPIC = 'sk-ant-api03-Qw3rTy7uIo9pAs2dFg4hJk6lZx8cVb1nM5-wxyzAA';
const OPENROUTER = 'sk-or-v1-0123456789abcdef0123456789abcdef0123456789abcdef';
const AWS = 'AKIAIOSFODNN7EXAMPLE';
const JWT =
  'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';

describe('maskSecret', () => {
  it('keeps a recognizable prefix and the last four of a long secret', () => {
    expect(maskSecret(OPENAI)).toBe('sk-…AbCd');
    expect(maskSecret(AWS)).toBe('AKIA…MPLE');
  });

  it('hides a short secret completely', () => {
    expect(maskSecret('short-secret-1')).toBe(REDACTED);
  });
});

describe('redactSecrets', () => {
  it.each([
    ['OpenAI project key', `key ${OPENAI} failed`, OPENAI, 'key sk-…AbCd failed'],
    ['Anthropic key', `using ${ANTHROPIC}`, ANTHROPIC, 'using sk-…yzAA'],
    ['OpenRouter key', `(${OPENROUTER})`, OPENROUTER, '(sk-…cdef)'],
    [
      'Bearer token',
      'Authorization: Bearer abc123def456ghi789jkl012',
      'abc123def456ghi789jkl012',
      'Authorization: Bearer abc1…l012',
    ],
    ['x-api-key header', 'x-api-key: k9f8e7d6c5b4a3', 'k9f8e7d6c5b4a3', `x-api-key: ${REDACTED}`],
    [
      'api_key query',
      'GET /v1?api_key=Zx81Qw72Er63Ty54Ui45&x=1',
      'Zx81Qw72Er63Ty54Ui45',
      'GET /v1?api_key=Zx81…Ui45&x=1',
    ],
    ['JSON apiKey', '{"apiKey":"hunter2hunter2"}', 'hunter2hunter2', `{"apiKey":"${REDACTED}"}`],
    [
      'env var',
      'OPENAI_API_KEY=abcdefghijklmnopqrstuvwx',
      'abcdefghijklmnopqrstuvwx',
      'OPENAI_API_KEY=abcd…uvwx',
    ],
    ['AWS access key id', `id=${AWS};`, AWS, 'id=AKIA…MPLE;'],
    [
      'AWS secret',
      'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      'aws_secret_access_key = wJal…EKEY',
    ],
    [
      'long hex after token',
      'token: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b',
      '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b',
      'token: 9f86…4f1b',
    ],
    [
      'base64 after secret',
      'secret=dGhpcyBpcyBhIHNlY3JldCAxMjM0NQ==',
      'dGhpcyBpcyBhIHNlY3JldCAxMjM0NQ==',
      'secret=dGhp…NQ==',
    ],
    ['JWT', `jwt ${JWT}`, JWT, 'jwt eyJh…sR8U'],
  ])('%s', (_name, input, secret, expected) => {
    const out = redactSecrets(input);
    expect(out).not.toContain(secret);
    expect(out).toBe(expected);
  });

  it('masks every exact configured secret, even one no pattern knows', () => {
    const out = redactSecrets('a=zebra-mango-71 b=zebra-mango-71', ['zebra-mango-71']);
    expect(out).toBe(`a=${REDACTED} b=${REDACTED}`);
  });

  it('ignores configured secrets too short to be keys', () => {
    expect(redactSecrets('the cat sat', ['cat'])).toBe('the cat sat');
  });

  it('masks the shared shapes it did not know before: PEM keys, Stripe, Slack, GitLab tokens', () => {
    const text = [
      'pem -----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----',
      'stripe sk_live_abcdefghijklmnop1234',
      'slack xoxb-1234567890-abcdefghij',
      'gitlab glpat-abcdefghijklmnopqrstu',
    ].join('\n');
    const out = redactSecrets(text);
    for (const secret of [
      'MIIEvQIBADANBgkq',
      'abcdefghijklmnop1234',
      '1234567890-abcdefghij',
      'glpat-abcdefghijklmnopqrstu',
    ]) {
      expect(out).not.toContain(secret);
    }
    expect(out).toContain('stripe sk_l…1234');
  });

  it('leaves prose alone', () => {
    const prose =
      'Bearer authentication failed; the token limit is 4096 tokens; max_tokens: 1024; secret: yes; key: value';
    expect(redactSecrets(prose)).toBe(prose);
  });

  it('is idempotent', () => {
    const once = redactSecrets(`x-api-key: ${OPENAI} Bearer ${OPENAI} api_key=${OPENAI}`);
    expect(redactSecrets(once)).toBe(once);
    expect(once).not.toContain(OPENAI);
  });

  it('runs in linear time on a 1 MB adversarial input', () => {
    const chunks = [
      'a-'.repeat(100_000),
      'api_key'.repeat(20_000),
      ` ${'x'.repeat(200_000)}`,
      'Bearer '.repeat(20_000),
      'sk-'.repeat(40_000),
      'token:'.repeat(20_000),
      ' '.repeat(100_000),
    ];
    const input = `${chunks.join('')} ${OPENAI}`;
    expect(input.length).toBeGreaterThan(1_000_000);
    const started = performance.now();
    const out = redactSecrets(input, ['zebra-mango-71', 'another-secret-9']);
    // Catastrophic backtracking would take minutes; a generous bound survives a loaded machine.
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(out).not.toContain(OPENAI);
  });
});

describe('redactHeaders', () => {
  it('masks credential headers whole, keeps the scheme, redacts the rest', () => {
    const out = redactHeaders(
      new Headers({
        Authorization: `Bearer ${OPENAI}`,
        'X-Api-Key': ANTHROPIC,
        'Content-Type': 'application/json',
        'X-Debug': `key=${OPENROUTER}`,
      }),
    );
    expect(out).toEqual({
      authorization: 'Bearer sk-…AbCd',
      'x-api-key': 'sk-…yzAA',
      'content-type': 'application/json',
      'x-debug': 'key=sk-…cdef',
    });
  });

  it('accepts node:http style records and entry lists', () => {
    expect(redactHeaders({ Cookie: ['session=abc'], 'Retry-After': 3, skip: undefined })).toEqual({
      cookie: REDACTED,
      'retry-after': '3',
    });
    expect(redactHeaders([['api-key', 'short']])).toEqual({ 'api-key': REDACTED });
  });
});
