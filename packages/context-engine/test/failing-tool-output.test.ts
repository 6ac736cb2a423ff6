import type { ChatMessage } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { ContextCompressor, parseSections } from '../src/index.js';
import { scriptedSummarizer, toolExchange } from './support/conversations.js';

const lines = (n: number, label: string) =>
  Array.from({ length: n }, (_, i) => `${label} ${i}`).join('\n');

/** A failing test run: the error sits in the middle, the assertion near the end. */
const FAILING_RUN = [
  'exit code: 1',
  lines(150, 'progress line'),
  'CurrencyMismatchError: cannot add EUR to USD',
  '    at Money.add (src/money.ts:42:11)',
  '    at Object.<anonymous> (test/money.test.ts:17:5)',
  lines(150, 'more output'),
  'FAIL test/money.test.ts > adds amounts',
  'AssertionError: expected 3 to equal 4',
  `while posting with api_key=Zq8xW3vT9sR2pL6mN4kJ`,
  lines(40, 'teardown'),
].join('\n');

function conversationWithFailures(extraFailures = 0): ChatMessage[] {
  const messages: ChatMessage[] = [
    { role: 'system', content: 'You are the test agent.' },
    { role: 'user', content: 'Make the money tests pass.' },
    { role: 'assistant', content: 'Looking at the tests first.' },
    { role: 'user', content: 'Go ahead.' },
    ...toolExchange(
      'ok1',
      'terminal',
      { command: 'npm run build' },
      `exit code: 0\n${lines(200, 'built module')}`,
    ),
    ...toolExchange('bad1', 'terminal', { command: 'npm test' }, FAILING_RUN),
  ];
  for (let i = 0; i < extraFailures; i++) {
    const big = `Traceback (most recent call last):\n${lines(3_000, `frame ${i}`)}\nValueError: bad ${i}`;
    messages.push(...toolExchange(`more${i}`, 'python', { command: `python job${i}.py` }, big));
  }
  for (let i = 0; i < 6; i++) {
    messages.push(
      { role: 'assistant', content: `Thinking about step ${i}. ${'words '.repeat(60)}` },
      { role: 'user', content: `ok ${i}` },
    );
  }
  return messages;
}

describe('failing tool output reaches the summarizer', () => {
  it('sends a bounded, redacted excerpt of each failing result', async () => {
    const summarizer = scriptedSummarizer();
    const engine = new ContextCompressor({ contextLength: 200_000, tailTokens: 300, summarizer });
    const result = await engine.compress(conversationWithFailures(), { force: true });
    expect(result.outcome).toBe('summarized');
    const prompt = summarizer.requests[0]?.prompt ?? '';
    expect(prompt).toContain('CurrencyMismatchError: cannot add EUR to USD');
    expect(prompt).toContain('AssertionError: expected 3 to equal 4');
    expect(prompt).not.toContain('Zq8xW3vT9sR2pL6mN4kJ');
    // Successful output stays a one-line summary.
    expect(prompt).not.toContain('built module 57');
    // The excerpt is bounded: not the whole 300-line run.
    expect(prompt).not.toContain('progress line 75');
  });

  it('keeps the excerpts within a total budget however many results failed', async () => {
    const summarizer = scriptedSummarizer();
    const engine = new ContextCompressor({ contextLength: 200_000, tailTokens: 300, summarizer });
    const input = conversationWithFailures(12);
    const rawChars = input.reduce((n, m) => n + JSON.stringify(m).length, 0);
    expect(rawChars).toBeGreaterThan(500_000);
    await engine.compress(input, { force: true });
    const prompt = summarizer.requests[0]?.prompt ?? '';
    expect(prompt.length).toBeLessThan(20_000);
    // The newest failures get the budget first.
    expect(prompt).toContain('ValueError: bad 11');
  });

  it('names the error in the fallback summary, with the real line count', async () => {
    const engine = new ContextCompressor({ contextLength: 200_000, tailTokens: 300 });
    const result = await engine.compress(conversationWithFailures(), { force: true });
    expect(result.outcome).toBe('fallback');
    const commands = parseSections(result.summary ?? '').get('Commands and Results') ?? '';
    expect(commands).toContain('CurrencyMismatchError');
    expect(commands).toContain('[terminal] ran `npm run build` -> exit 0, 201 lines');
    expect(commands).not.toContain('Zq8xW3vT9sR2pL6mN4kJ');
  });
});
