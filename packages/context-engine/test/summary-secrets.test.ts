import type { ChatMessage } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import {
  ContextCompressor,
  MODEL_SECTIONS,
  parseSections,
  SUMMARY_PREFIX,
  type Summarizer,
} from '../src/index.js';
import { scriptedSummarizer, templateSummary, toolExchange } from './support/conversations.js';

/** Secret values in the shapes people paste; none may survive compression anywhere. */
const SECRETS = {
  xApiKey: '3f9a0c1e5b7d4a2f8e6c0b9a1d3f5e7c',
  datadog: '9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b',
  jwtHeader: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9',
  jwtPayload: 'eyJzdWIiOiJkZXBsb3ktYm90IiwiaWF0IjoxNzAwMDAwMDAwfQ',
  jwtSignature: 'Qm9iX2xvdmVz-4c2a9e7f1b3d-K9ZQ-20240',
  anthropic: 'sk-ant-api03-7f3e9a1b2c4d6e8f-AbCdEfGhIjKlMnOp',
  github: 'ghp_Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe9Dc8',
  awsId: 'AKIAIOSFODNN7EXAMPLE',
  awsSecret: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  password: 'Tr0ub4dor-and-3',
  pem: Array.from(
    { length: 6 },
    (_, i) => `MIIEow${i}IBAAKCAQEA7c3a9f1e2b4d6a8c0e1f3a5b7c9d2e4f6a8b0c`,
  ).join('\n'),
  urlPassword: 'S3cr3tPassw0rd',
  queryToken: 'a1b2c3d4e5f60718293a4b5c6d7e8f90',
  basicAuth: 'hunter2hunter2',
} as const;

const jwt = `${SECRETS.jwtHeader}.${SECRETS.jwtPayload}.${SECRETS.jwtSignature}`;
const pemBlock = `-----BEGIN RSA PRIVATE KEY-----\n${SECRETS.pem}\n-----END RSA PRIVATE KEY-----`;

/** Every 10-character window of every secret: a partial leak counts as a leak. */
function fragments(): string[] {
  const out: string[] = [];
  for (const secret of Object.values(SECRETS)) {
    for (const part of secret.split('\n')) {
      for (let i = 0; i + 10 <= part.length; i++) out.push(part.slice(i, i + 10));
    }
  }
  return out;
}

/** The secrets sit only in the middle of the conversation, the part that gets summarized. */
function secretConversation(): ChatMessage[] {
  const curl = `curl -s -H "X-Api-Key: ${SECRETS.xApiKey}" -H "Authorization: Bearer ${jwt}" https://api.example.test/v1/deploys`;
  const failingOutput = [
    'exit code: 1',
    `> curl -u deploy:${SECRETS.basicAuth} https://ci.example.test/api`,
    ...Array.from({ length: 120 }, (_, i) => `log line ${i}`),
    `Error: request rejected for key ${SECRETS.anthropic} (X-Api-Key: ${SECRETS.xApiKey})`,
    `    at deploy (/srv/app/deploy.ts:41:7) token=${SECRETS.queryToken}`,
  ].join('\n');
  return [
    { role: 'system', content: 'You are the test agent.' },
    { role: 'user', content: 'Please get the deploy working again.' },
    ...toolExchange('h1', 'terminal', { command: 'git status' }, 'clean'),
    {
      role: 'user',
      content: `Here is my .env:\nDATADOG_API_KEY=${SECRETS.datadog}\npassword: ${SECRETS.password}\naws_access_key_id = ${SECRETS.awsId}\naws_secret_access_key = ${SECRETS.awsSecret}`,
    },
    ...toolExchange('s1', 'terminal', { command: curl }, failingOutput),
    ...toolExchange(
      's2',
      'terminal',
      { command: 'cat ~/.aws/credentials' },
      `[default]\naws_secret_access_key = ${SECRETS.awsSecret}`,
    ),
    {
      role: 'user',
      content: `The key is\n${pemBlock}\nand the db is postgres://admin:${SECRETS.urlPassword}@db.internal:5432/app`,
    },
    {
      role: 'assistant',
      content: `Using ${SECRETS.anthropic} and ${SECRETS.github}; the hook is https://hooks.example.test/notify?token=${SECRETS.queryToken} ${'reasoning '.repeat(60)}`,
    },
    ...Array.from({ length: 6 }, (_, i): ChatMessage[] => [
      { role: 'user', content: `Clean follow-up ${i}: check packages/app/src/step${i}.ts` },
      { role: 'assistant', content: `Checked step ${i}. ${'ok '.repeat(80)}` },
    ]).flat(),
    { role: 'user', content: 'Now summarize where we are.' },
  ];
}

/** Every string the compressor hands back or sends out, as one text. */
function everything(
  results: readonly unknown[],
  engine: ContextCompressor,
  requests: readonly { system: string; prompt: string }[],
): string {
  return [
    ...results.map((r) => JSON.stringify(r)),
    JSON.stringify(engine.getStatus()),
    ...requests.map((r) => `${r.system}\n${r.prompt}`),
  ].join('\n');
}

const summarizers: Record<
  string,
  () => Summarizer & { requests: { system: string; prompt: string }[] }
> = {
  'a model summary': () => scriptedSummarizer(() => templateSummary('fix the deploy')),
  'a fallback summary (summarizer failing)': () =>
    scriptedSummarizer(() => Promise.reject(new Error('down'))),
};

describe('secrets never survive compression', () => {
  for (const [label, make] of Object.entries(summarizers)) {
    it(`leaves no fragment of any secret in the whole output, with ${label}`, async () => {
      const summarizer = make();
      const engine = new ContextCompressor({
        contextLength: 200_000,
        tailTokens: 300,
        maxAttemptsPerTurn: 10,
        summarizer,
      });
      const input = secretConversation();
      const first = await engine.compress(input, { force: true });
      expect(first.changed).toBe(true);
      const more: ChatMessage[] = [
        ...first.messages,
        ...Array.from({ length: 8 }, (_, i): ChatMessage[] => [
          { role: 'assistant', content: `Working on part ${i}. ${'more '.repeat(300)}` },
          { role: 'user', content: `And part ${i + 1}?` },
        ]).flat(),
      ];
      const second = await engine.compress(more, { force: true });
      expect(second.changed).toBe(true);
      const output = everything([first, second], engine, summarizer.requests);
      const leaked = fragments().filter((f) => output.includes(f));
      expect(leaked).toEqual([]);
      expect(second.summary).toContain('[REDACTED]');
    });
  }

  it('never indexes a value that follows a secret-like label, even in an unknown shape', async () => {
    const opaque = '7c4a8d09ca3762af61e59520943dc26494f8941b';
    const input = secretConversation();
    input.splice(4, 0, {
      role: 'assistant',
      content: `Webhook configured. passphrase ${opaque} and commit 5d41402abc4b2a76b9719d911017c592 landed.`,
    });
    // Mentioned bare later: still the same secret, still not indexed.
    input.splice(5, 0, { role: 'user', content: `is ${opaque} rotated yet?` });
    const engine = new ContextCompressor({ contextLength: 200_000, tailTokens: 300 });
    const result = await engine.compress(input, { force: true });
    const anchors = parseSections(result.summary ?? '').get('Anchor Index') ?? '';
    expect(anchors).not.toContain(opaque.slice(0, 12));
    // An identifier outside a secret-like context is still indexed.
    expect(anchors).toContain('5d41402abc4b2a76b9719d911017c592');
  });

  it('scrubs secrets that a summary written by an older version still carries', async () => {
    const old = [
      SUMMARY_PREFIX,
      ...MODEL_SECTIONS.map(
        (name) =>
          `## ${name}\n${name === 'Decisions' ? `- use DATADOG_API_KEY=${SECRETS.datadog}` : 'None'}`,
      ),
    ].join('\n\n');
    const input: ChatMessage[] = [
      { role: 'system', content: 'sys' },
      { role: 'user', content: old },
      ...Array.from({ length: 10 }, (_, i): ChatMessage[] => [
        { role: 'assistant', content: `work ${i} ${'w '.repeat(400)}` },
        { role: 'user', content: `more ${i}` },
      ]).flat(),
    ];
    // The update leaves Decisions out, so the old body is carried over.
    const summarizer = scriptedSummarizer(() =>
      templateSummary('goal').replace(/## Decisions\nNone\n\n/, ''),
    );
    const engine = new ContextCompressor({ contextLength: 200_000, tailTokens: 300, summarizer });
    await engine.onSessionStart('s', { compressionCount: 1 });
    const result = await engine.compress(input, { force: true });
    expect(result.outcome).toBe('summarized');
    expect(parseSections(result.summary ?? '').get('Decisions')).toContain('DATADOG_API_KEY=');
    const output = everything([result], engine, summarizer.requests);
    expect(output).not.toContain(SECRETS.datadog.slice(0, 10));
  });
});
