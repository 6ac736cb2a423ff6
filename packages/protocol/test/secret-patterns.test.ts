import { describe, expect, it } from 'vitest';
import {
  AUTH_SCHEME_PATTERN,
  BEARER_TOKEN_PATTERN,
  isMachineToken,
  SECRET_TOKEN_PATTERNS,
  URL_PASSWORD_PATTERN,
  USER_OPTION_PATTERN,
} from '../src/index.js';

/** One sample of each shape, in the order of SECRET_TOKEN_PATTERNS. */
const SECRET_SAMPLES: readonly string[] = [
  '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx9z\n-----END RSA PRIVATE KEY-----',
  'sk-proj-abcdefghijklmnop1234',
  'sk_live_abcdefghijklmnop1234',
  'ghp_abcdefghijklmnopqrstuvwxyz0123',
  'xoxb-1234567890-abcdefghij',
  'AKIAABCDEFGHIJKLMNOP',
  'AIzaSyA1234567890abcdefghijklmnopqrstu',
  'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJlLXBhcnQ',
];

const hide = (text: string, pattern: RegExp) => text.replace(pattern, '<X>');

describe('the shared secret shapes', () => {
  it('each token pattern matches its sample whole, inside prose, and nothing of the prose', () => {
    expect(SECRET_SAMPLES).toHaveLength(SECRET_TOKEN_PATTERNS.length);
    SECRET_TOKEN_PATTERNS.forEach((pattern, i) => {
      const sample = SECRET_SAMPLES[i] as string;
      expect(hide(`the key is ${sample} here`, pattern)).toBe('the key is <X> here');
      expect(hide('nothing secret: a skeleton, a task-list, eyJ alone', pattern)).toBe(
        'nothing secret: a skeleton, a task-list, eyJ alone',
      );
    });
  });

  it('labelled patterns keep the label in group 1', () => {
    const keep = (text: string, pattern: RegExp) =>
      text.replace(pattern, (_m, label: string) => `${label}<X>`);
    expect(keep('Authorization: Bearer abc.def-123456', BEARER_TOKEN_PATTERN)).toBe(
      'Authorization: Bearer <X>',
    );
    expect(keep('authorization: Basic dXNlcjpwYXNz', AUTH_SCHEME_PATTERN)).toBe(
      'authorization: Basic <X>',
    );
    expect(keep('curl -u alice:s3cret https://x', USER_OPTION_PATTERN)).toBe(
      'curl -u alice:<X> https://x',
    );
    expect('postgres://app:pw123@db:5432/x'.replace(URL_PASSWORD_PATTERN, '$1<X>$2')).toBe(
      'postgres://app:<X>@db:5432/x',
    );
  });

  it('tells a machine token from prose after Bearer', () => {
    expect(isMachineToken('abc.def-123456')).toBe(true);
    expect(isMachineToken('abcdefghijklmnopqrstuvwxyz')).toBe(true);
    expect(isMachineToken('authentication')).toBe(false);
    expect(isMachineToken('a1')).toBe(false);
  });

  it('stays linear on hostile input: a megabyte of near-misses in well under a second each', () => {
    const hostile = [
      'sk-'.repeat(300_000),
      '-----BEGIN PRIVATE KEY-----'.repeat(40_000),
      `eyJ${'a'.repeat(1_000_000)}`,
      `http://${'a-'.repeat(300_000)}`,
    ];
    for (const text of hostile) {
      for (const pattern of [...SECRET_TOKEN_PATTERNS, URL_PASSWORD_PATTERN, USER_OPTION_PATTERN]) {
        const started = performance.now();
        text.replace(pattern, '');
        // Generous on a loaded machine; a backtracking pattern takes minutes here, not ms.
        expect(performance.now() - started).toBeLessThan(5_000);
      }
    }
  });
});
