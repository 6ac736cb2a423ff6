import type { ChatMessage } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import {
  CompressionResultSchema,
  ContextCompressor,
  MODEL_SECTIONS,
  NO_USER_SENTINEL,
  parseSections,
  SUMMARY_MARKER,
  summaryTokenBudget,
} from '../src/index.js';
import { assertToolPairsIntact } from '../src/testing.js';
import {
  conversation,
  scriptedSummarizer,
  templateSummary,
  textOf,
  toolExchange,
} from './support/conversations.js';

const engineWith = (summarizer = scriptedSummarizer()) => ({
  summarizer,
  engine: new ContextCompressor({ contextLength: 200_000, tailTokens: 500, summarizer }),
});

/** The summary message of a result. */
const summaryOf = (messages: readonly ChatMessage[]) =>
  textOf(messages.find((m) => textOf(m).startsWith(SUMMARY_MARKER)));

describe('summary size rules', () => {
  it('targets 20% of the span within [2,000, min(5% of window, 10,000)]', () => {
    expect(summaryTokenBudget(1_000, 200_000)).toBe(2_000);
    expect(summaryTokenBudget(30_000, 200_000)).toBe(6_000);
    expect(summaryTokenBudget(100_000, 200_000)).toBe(10_000);
    expect(summaryTokenBudget(100_000, 100_000)).toBe(5_000);
    expect(summaryTokenBudget(1_000, 32_000)).toBe(1_600);
  });

  it('rejects a summary longer than its input, keeping only the phase-1 pruning', async () => {
    const { engine } = engineWith(scriptedSummarizer(() => templateSummary('x'.repeat(400_000))));
    const input = conversation(12);
    const result = await engine.compress(input, { force: true });
    expect(result.outcome).toBe('summary_too_long');
    expect(result.summary).toBeUndefined();
    expect(result.messages).toHaveLength(input.length);
    expect(result.messages.some((m) => textOf(m).startsWith(SUMMARY_MARKER))).toBe(false);
    expect(textOf(result.messages[7])).toBe('[terminal] ran `npm test -w p1` -> exit 1, 41 lines');
  });
});

describe('phase 2 summary', () => {
  it('sends the template, focus topic, memory context and budget to the summarizer', async () => {
    const { engine, summarizer } = engineWith();
    const result = await engine.compress(conversation(12), {
      force: true,
      focusTopic: 'the flaky auth test',
      memoryContext: 'user prefers pnpm',
    });
    expect(result.outcome).toBe('summarized');
    const request = summarizer.requests[0];
    for (const section of MODEL_SECTIONS) expect(request?.system).toContain(`## ${section}`);
    expect(request?.prompt).toContain('Focus topic: "the flaky auth test"');
    expect(request?.prompt).toContain('user prefers pnpm');
    expect(request?.maxTokens).toBe(2_000);
    expect(request?.signal).toBeInstanceOf(AbortSignal);
  });

  it('builds head + summary + tail with the prefix, snapshot and code sections', async () => {
    const { engine } = engineWith(
      scriptedSummarizer(() =>
        templateSummary('goal from the model', { 'Historical Task Snapshot': 'WRONG TASK' }),
      ),
    );
    const input = conversation(12);
    const result = await engine.compress(input, { force: true });
    expect(result.messages.slice(0, 4)).toEqual(input.slice(0, 4));
    const summary = summaryOf(result.messages);
    expect(result.summary).toBe(summary);
    expect(summary).toContain('session_search');
    expect(summary).toMatch(/not (new )?instructions/);
    const sections = parseSections(summary);
    expect(sections.get('Goals')).toBe('goal from the model');
    expect(sections.get('Historical Task Snapshot')).toContain(
      'Final request: summarize what you did.',
    );
    expect(summary).not.toContain('WRONG TASK');
    expect(sections.get('Anchor Index')).toContain('packages/p3/src/mod3.ts');
    expect(sections.get('Anchor Index')).toContain('npm test -w p3');
    expect(sections.get('Detailed Session Log')).toMatch(/terminal/);
    const users = sections.get('User Messages (verbatim, newest first)') ?? '';
    expect(users.indexOf('Request 5:')).toBeGreaterThan(-1);
    expect(users.indexOf('Request 5:')).toBeLessThan(users.indexOf('Request 2:'));
    const range = result.summarizedRange;
    expect(range?.start).toBe(4);
    expect(result.messages.length).toBe(
      input.length - ((range?.end ?? 0) - (range?.start ?? 0)) + 1,
    );
  });

  it('keeps a mid-span last user message verbatim right after the summary', async () => {
    const input = conversation(3);
    for (let i = 0; i < 30; i++) {
      input.push(
        ...toolExchange(`w${i}`, 'terminal', { command: `step ${i}` }, `r${i}\n`.repeat(300)),
      );
    }
    const { engine } = engineWith();
    const result = await engine.compress(input, { force: true });
    const lastUser = input.findLastIndex((m) => m.role === 'user');
    expect(result.pinnedUserIndex).toBe(lastUser);
    const at = result.messages.findIndex((m) => textOf(m).startsWith(SUMMARY_MARKER));
    expect(result.messages[at]?.role).toBe('assistant');
    expect(result.messages[at + 1]).toBe(input[lastUser]);
    assertToolPairsIntact(result.messages);
    // Untouched tail messages keep their identity, so the store re-links rather than copies.
    expect(result.messages.at(-1)).toBe(input.at(-1));
  });

  it('never repeats the role of the message after it', async () => {
    const { engine } = engineWith();
    const result = await engine.compress(conversation(12), { force: true });
    const at = result.messages.findIndex((m) => textOf(m).startsWith(SUMMARY_MARKER));
    expect(result.messages[at]?.role).not.toBe(result.messages[at + 1]?.role);
  });

  it('redacts API keys, bearer tokens, URL passwords and private keys', async () => {
    const { engine, summarizer } = engineWith(
      scriptedSummarizer(() => templateSummary('key sk-proj-abcdefghijklmnopqrstuvwx was used')),
    );
    const input = conversation(12);
    input.splice(10, 0, {
      role: 'user',
      content: [
        'use sk-ant-abcdefghijklmnopqrstuvwxyz0123',
        'Authorization: Bearer abc.def.ghijklmnop',
        'clone https://bob:hunter2secret@git.example.test/repo.git',
        '-----BEGIN RSA PRIVATE KEY-----\nMIIEabc\n-----END RSA PRIVATE KEY-----',
      ].join('\n'),
    });
    const result = await engine.compress(input, { force: true });
    const everything = `${summarizer.requests[0]?.prompt}\n${result.summary}`;
    for (const secret of ['sk-ant-abc', 'sk-proj-abc', 'ghijklmnop', 'hunter2secret', 'MIIEabc']) {
      expect(everything).not.toContain(secret);
    }
    expect(result.summary).toContain('[REDACTED]');
    expect(result.summary).toContain('https://bob:[REDACTED]@git.example.test');
  });

  it('updates the previous summary section by section on the next compression', async () => {
    const summarizer = scriptedSummarizer((_r, call) =>
      call === 1
        ? templateSummary('goal one', { Decisions: 'decision one' })
        : // The update leaves Goals out (kept) and rewrites Decisions (replaced).
          templateSummary('unused', { Decisions: 'decision two' }).replace(
            /## Goals\nunused\n\n/,
            '',
          ),
    );
    const { engine } = engineWith(summarizer);
    const first = await engine.compress(conversation(12), { force: true });
    const more = [...first.messages, ...conversation(8).slice(1)];
    const second = await engine.compress(more, { force: true });
    expect(second.outcome).toBe('summarized');
    expect(summarizer.requests[1]?.prompt).toContain('<previous-summary>');
    expect(summarizer.requests[1]?.prompt).toContain('decision one');
    // The head shrinks to the system prompt after the first compression.
    expect(second.summarizedRange?.start).toBe(1);
    const sections = parseSections(second.summary ?? '');
    expect(sections.get('Goals')).toBe('goal one');
    expect(sections.get('Decisions')).toBe('decision two');
    const users = sections.get('User Messages (verbatim, newest first)') ?? '';
    expect(users).toContain('Request 0:');
    expect(
      summaryOf(second.messages).match(new RegExp(SUMMARY_MARKER.replace(/[[\]]/g, '\\$&'), 'g')),
    ).toHaveLength(1);
    expect(CompressionResultSchema.parse(second).summary).toBe(second.summary);
  });

  it('uses the sentinel variant for a session without user messages', async () => {
    const input: ChatMessage[] = [{ role: 'system', content: 'cron job' }];
    for (let i = 0; i < 20; i++) {
      input.push(
        ...toolExchange(`c${i}`, 'terminal', { command: `check ${i}` }, 'ok\n'.repeat(300)),
      );
      input.push({ role: 'assistant', content: `checked ${i} ${'fine '.repeat(60)}` });
    }
    const { engine, summarizer } = engineWith();
    const result = await engine.compress(input, { force: true });
    expect(summarizer.requests[0]?.system).toContain(NO_USER_SENTINEL);
    expect(parseSections(result.summary ?? '').get('Historical Task Snapshot')).toBe(
      NO_USER_SENTINEL,
    );

    const liar = engineWith(scriptedSummarizer(() => templateSummary('User asked: deploy it')));
    const rejected = await liar.engine.compress(input, { force: true });
    expect(rejected.outcome).toBe('fallback');
    expect(rejected.summary).not.toMatch(/user asked:/i);
  });
});
