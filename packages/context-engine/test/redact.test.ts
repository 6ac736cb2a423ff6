import { describe, expect, it } from 'vitest';
import { REDACTED, redactSecrets } from '../src/index.js';

describe('redactSecrets', () => {
  it.each([
    ['OPENAI key sk-proj-abcdefghijklmnopqrstuv12', 'sk-proj-abcdefghijklmnopqrstuv12'],
    ['ghp_abcdefghijklmnopqrstuvwxyz0123 pushed', 'ghp_abcdefghijklmnopqrstuvwxyz0123'],
    ['aws AKIAABCDEFGHIJKLMNOP', 'AKIAABCDEFGHIJKLMNOP'],
    ['Authorization: Bearer eyJhbGciOi.payload.sig', 'eyJhbGciOi.payload.sig'],
    ['postgres://admin:s3cretpass@db.internal:5432/app', 's3cretpass'],
    ['API_KEY=abcdef123456 in .env', 'abcdef123456'],
    ['{"password": "correct horse"}', 'correct'],
    [
      '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaA\n-----END OPENSSH PRIVATE KEY-----',
      'b3BlbnNzaA',
    ],
  ])('hides the secret in %j', (text, secret) => {
    const out = redactSecrets(text);
    expect(out).not.toContain(secret);
    expect(out).toContain(REDACTED);
  });

  it('leaves ordinary text alone', () => {
    const text = 'ran npm test in packages/state; max_tokens: 2000; see https://example.test/docs';
    expect(redactSecrets(text)).toBe(text);
  });
});
