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
    ['curl -H "X-Api-Key: 3f9a0c1e5b7d4a2f8e6c0b9a1d3f5e7c"', '3f9a0c1e5b7d4a2f'],
    ['DATADOG_API_KEY=9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b', '9e8d7c6b5a4f3e2d'],
    ['STRIPE_KEY=abc123def456ghi789', 'abc123def456'],
    ['see eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.Qm9iX2-xvdmVz', 'Qm9iX2-xvdmVz'],
    ['Authorization: Basic dXNlcjpwYXNzd29yZA==', 'dXNlcjpwYXNzd29yZA'],
    ['curl -u deploy:hunter2hunter2 https://ci.example.test', 'hunter2hunter2'],
    ['GET /notify?token=a1b2c3d4e5f6&page=2', 'a1b2c3d4e5f6'],
    ['aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'K7MDENG'],
    ['key sk_live_4eC39HqLyjWDarjtT1zdp7dc', '4eC39HqLyjWDarjtT1zdp7dc'],
    [
      'cut short: -----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7c3a9f1e2b4d6a8c0\nMIIEsecond',
      'MIIEowIBAAKCAQEA',
    ],
  ])('hides the secret in %j', (text, secret) => {
    const out = redactSecrets(text);
    expect(out).not.toContain(secret);
    expect(out).toContain(REDACTED);
  });

  it('leaves ordinary text alone', () => {
    const text =
      'ran npm test in packages/state; max_tokens: 2000; see https://example.test/docs; ' +
      'Bearer authentication is used; the secretary: Ann; token_count: 4096';
    expect(redactSecrets(text)).toBe(text);
  });

  it('is idempotent', () => {
    const once = redactSecrets(
      'X-Api-Key: 3f9a0c1e5b7d4a2f8e6c Authorization: Bearer abc.def.ghi1',
    );
    expect(redactSecrets(once)).toBe(once);
  });
});
