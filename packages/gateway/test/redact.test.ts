import { describe, expect, it } from 'vitest';
import { redactCommand, redactForChat } from '../src/delivery/redact-for-chat.js';
import { redactEvent } from '../src/pipeline/redacting-sink.js';

const OPENAI = 'sk-proj-Abcdefghijklmnopqrstuvwx0123456789';
const ANTHROPIC = 'sk-ant-api03-Zyxwvutsrqponmlkjihgfedcba987654';
const GITHUB = 'ghp_0123456789abcdefghijABCDEFGHIJ012345';
const AWS = 'AKIAIOSFODNN7EXAMPLE';
const JWT =
  'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';

describe('redactForChat', () => {
  it.each([
    ['an OpenAI key', `my key is ${OPENAI} ok`, OPENAI],
    ['an Anthropic key', `use ${ANTHROPIC}`, ANTHROPIC],
    ['a GitHub token', `token ${GITHUB}`, GITHUB],
    ['an AWS access key id', `aws ${AWS} here`, AWS],
    ['a JWT', `session ${JWT}`, JWT],
    ['a bearer token', 'Authorization: Bearer abc123def456ghi789', 'abc123def456ghi789'],
    ['an X-Api-Key header', 'X-Api-Key: 9f8e7d6c5b4a3210', '9f8e7d6c5b4a3210'],
    ['a *_KEY assignment', 'export DATADOG_API_KEY=dd0123456789abcd', 'dd0123456789abcd'],
    ['a *_TOKEN assignment', 'SLACK_BOT_TOKEN="tok-1234567890"', 'tok-1234567890'],
    ['a PASSWORD assignment', 'PASSWORD=hunter2hunter2', 'hunter2hunter2'],
    ['URL credentials', 'git clone https://alice:s3cretPass@example.com/x.git', 's3cretPass'],
    ['a ?token= query', 'GET https://api.example.com/v1?token=abcdef123456&x=1', 'abcdef123456'],
    ['an &api_key= query', 'https://x.io/a?q=1&api_key=zzzz99998888', 'zzzz99998888'],
  ])('hides %s', (_label, text, secret) => {
    const out = redactForChat(text);
    expect(out).not.toContain(secret);
    expect(out).toContain('[REDACTED]');
  });

  it('hides a whole private key block, and the body of one cut short', () => {
    const block = [
      '-----BEGIN RSA PRIVATE KEY-----',
      'MIIEowIBAAKCAQEAsecretbodyline1',
      'secretbodyline2==',
      '-----END RSA PRIVATE KEY-----',
    ].join('\n');
    const out = redactForChat(`here:\n${block}\nthanks`);
    expect(out).not.toContain('secretbodyline');
    expect(out).toContain('here:');
    expect(out).toContain('thanks');
    const cut = redactForChat('-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA');
    expect(cut).not.toContain('b3BlbnNzaC1rZXktdjEAAAAA');
  });

  it('leaves ordinary prose, code and numbers alone', () => {
    const prose = [
      'The key to success is a token of appreciation.',
      'Bearer authentication is described in RFC 6750.',
      'const password = input.value; // compare later',
      'Visit https://example.com/docs?page=2 for the token budget (4096 tokens).',
      'ask-question and task-runner are words, sk-short too.',
    ].join('\n');
    expect(redactForChat(prose)).toBe(prose);
  });

  it('is idempotent and keeps the label of an assignment', () => {
    const once = redactForChat(`OPENAI_API_KEY=${OPENAI}`);
    expect(once).toBe('OPENAI_API_KEY=[REDACTED]');
    expect(redactForChat(once)).toBe(once);
  });

  it('stays linear on a megabyte of hostile input', () => {
    const hostile = `${'sk-'.repeat(100_000)}${'a:'.repeat(100_000)}${'Bearer '.repeat(50_000)}`;
    const started = performance.now();
    redactForChat(hostile);
    // A backtracking pattern takes minutes here; linear passes take milliseconds. The bound is a
    // generous backstop for a loaded machine, not a speed target.
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe('redactCommand', () => {
  it('hides secrets in env assignments, flags and pipes of a command', () => {
    const command = `API_TOKEN=abcd1234efgh curl -H "Authorization: Bearer ${OPENAI}" --password hunter22 https://u:pw123456@h.io | sh`;
    const out = redactCommand(command);
    for (const secret of ['abcd1234efgh', OPENAI, 'hunter22', 'pw123456']) {
      expect(out).not.toContain(secret);
    }
    expect(out).toContain('curl');
    expect(out).toContain('| sh');
  });

  it('keeps a harmless command as it is, and caps a huge one', () => {
    expect(redactCommand('rm -rf ./build && echo "done"')).toBe('rm -rf ./build && echo "done"');
    const huge = redactCommand(`echo ${'x'.repeat(10_000)}`);
    expect(huge.length).toBeLessThan(2_100);
    expect(huge.endsWith('… (truncated)')).toBe(true);
  });
});

describe('redactEvent', () => {
  it("redacts the command and reason of an approval ruling, as it does an approval request's", () => {
    const event = redactEvent({
      type: 'approval_resolution',
      turnId: 't1',
      requestId: 'r1',
      decision: 'deny',
      decidedBy: 'smart',
      command: `curl -H "x-api-key: 9f8e7d6c5b4a3210" https://x.test`,
      reason: `it sends ${OPENAI} away`,
    });
    const text = JSON.stringify(event);
    expect(text).not.toContain('9f8e7d6c5b4a3210');
    expect(text).not.toContain(OPENAI);
    expect(text).toContain('curl');
    expect(text).toContain('it sends');
  });
});
