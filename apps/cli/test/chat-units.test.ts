/** Unit tests of the chat building blocks: formatting, options, prompts' answer parsing, input. */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parseChatOptions } from '../src/chat/chat-options.ts';
import { pickChoice } from '../src/chat/clarify-prompt.ts';
import { EntryQueue, NO_ENTRY } from '../src/chat/entry-queue.ts';
import {
  formatCost,
  formatDuration,
  formatTokens,
  shortArguments,
  usageLine,
} from '../src/chat/format.ts';
import { LineInput } from '../src/chat/line-input.ts';
import { Renderer } from '../src/chat/renderer.ts';
import { createStyle } from '../src/chat/style.ts';
import { parseApprovalAnswer } from '../src/chat/terminal-approval.ts';

describe('format', () => {
  it('shortens tool arguments to the telling field, on one line', () => {
    expect(shortArguments('{"command":"ls -la\\n  | head"}')).toBe('ls -la | head');
    expect(shortArguments('{"content":"x","path":"a.txt"}')).toBe('a.txt');
    expect(shortArguments('{"n":1}')).toBe('');
    expect(shortArguments(`{"command":"${'x'.repeat(100)}"}`, 10)).toBe(`${'x'.repeat(9)}…`);
    expect(shortArguments('not json')).toBe('not json');
  });

  it('formats durations, token counts and costs', () => {
    expect(formatDuration(420)).toBe('0.4s');
    expect(formatDuration(42_000)).toBe('42s');
    expect(formatDuration(125_000)).toBe('2m05s');
    expect(formatTokens(950)).toBe('950');
    expect(formatTokens(1234)).toBe('1.2k');
    expect(formatCost(0.00123)).toBe('$0.0012');
    const usage = {
      inputTokens: 100,
      outputTokens: 20,
      cacheReadTokens: 900,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
    };
    expect(usageLine(usage, 0.5, 2)).toBe('1.0k in · 20 out · 900 cached · $0.5000 · 2 calls');
  });
});

describe('parseChatOptions', () => {
  it('turns flags into config overrides', () => {
    const options = parseChatOptions([
      '-q',
      'hi',
      '--json',
      '--max-turns',
      '5',
      '--run-budget',
      '2.5',
      '--toolsets',
      'a, b',
      '--model',
      'm',
      '--provider',
      'p',
      '--base-url',
      'http://localhost:8080/v1',
      '--yolo',
    ]);
    expect(options).toMatchObject({ query: 'hi', json: true, quiet: false });
    expect(options.flags).toEqual({
      model: 'm',
      provider: 'p',
      baseUrl: 'http://localhost:8080/v1',
      toolsets: ['a', 'b'],
      yolo: true,
      maxTurns: 5,
      runBudgetSeconds: 2.5,
    });
  });

  it('names the bad argument', () => {
    expect(() => parseChatOptions(['--max-turns', '0'])).toThrow(/--max-turns/);
    expect(() => parseChatOptions(['--base-url', 'localhost'])).toThrow(/--base-url needs an http/);
    expect(() => parseChatOptions(['--json'])).toThrow(/go with -q/);
    expect(() => parseChatOptions(['--resume', 'x', '--continue'])).toThrow(/not both/);
    expect(() => parseChatOptions(['--bogus'])).toThrow(/bogus/);
  });
});

describe('prompt answers', () => {
  it('reads approval answers and fails closed on an empty one', () => {
    expect(parseApprovalAnswer('s')).toBe('session');
    expect(parseApprovalAnswer(' Always ')).toBe('always');
    expect(parseApprovalAnswer('o')).toBe('once');
    expect(parseApprovalAnswer('')).toBe('deny');
    expect(parseApprovalAnswer('maybe')).toBeUndefined();
  });

  it('maps a number to a clarify choice, anything else stays free text', () => {
    expect(pickChoice('2', ['red', 'blue'])).toBe('blue');
    expect(pickChoice('7', ['red', 'blue'])).toBe('7');
    expect(pickChoice(' green ', ['red'])).toBe('green');
  });
});

describe('EntryQueue', () => {
  it('serves a waiting prompt before a plain reader, and ends readers at end of input', async () => {
    const queue = new EntryQueue();
    const plain = queue.next();
    const prompt = queue.next(undefined, true);
    queue.push('s');
    expect(await prompt).toBe('s');
    queue.push('next message');
    expect(await plain).toBe('next message');
    const cancelled = new AbortController();
    const waiting = queue.next(cancelled.signal);
    cancelled.abort();
    expect(await waiting).toBe(NO_ENTRY);
    queue.push('buffered');
    queue.end();
    expect(await queue.next()).toBe('buffered');
    expect(await queue.next()).toBe(NO_ENTRY);
    expect(queue.drained).toBe(true);
  });
});

describe('LineInput (pipe)', () => {
  it('joins backslash continuations and """ blocks into single entries', async () => {
    const input = new PassThrough();
    const lines = new LineInput({ input });
    input.end('one \\\ntwo\n"""\na\n\nb\n"""\nthree\n');
    const got: unknown[] = [];
    for (;;) {
      const entry = await lines.queue.next();
      if (entry === NO_ENTRY) break;
      got.push(entry);
    }
    expect(got).toEqual(['one \ntwo', 'a\n\nb', 'three']);
  });
});

describe('Renderer', () => {
  /** A plain-text renderer and what it has written so far. */
  function capture(): { renderer: Renderer; out: () => string } {
    let out = '';
    const renderer = new Renderer({
      out: { write: (s: string) => (out += s) },
      style: createStyle(false),
      streamText: true,
      spinner: false,
    });
    return { renderer, out: () => out };
  }

  it('streams text, reasoning on its own line, and one line per tool call', () => {
    const { renderer, out } = capture();
    const turnId = 't';
    renderer.handle({ type: 'reasoning_delta', turnId, delta: 'hmm' });
    renderer.handle({ type: 'text_delta', turnId, delta: 'Hel' });
    renderer.handle({ type: 'text_delta', turnId, delta: 'lo' });
    renderer.handle({
      type: 'tool_call_start',
      turnId,
      toolCallId: 'c',
      name: 'terminal',
      arguments: '{"command":"ls"}',
    });
    renderer.handle({
      type: 'tool_call_end',
      turnId,
      toolCallId: 'c',
      name: 'terminal',
      outcome: 'error',
      durationMs: 1500,
      preview: 'exit 2',
    });
    renderer.handle({
      type: 'turn_end',
      turnId,
      sessionId: 's',
      exitReason: 'completed',
      completed: true,
      interrupted: false,
      failed: false,
      apiCalls: 1,
      usage: {
        inputTokens: 0,
        outputTokens: 0,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        reasoningTokens: 0,
      },
    });
    expect(out()).toBe('hmm\nHello\n  💻 terminal  ls  1.5s  ✗ exit 2\n');
  });

  it('says when a failed model call will be tried again, and after how long', () => {
    const { renderer, out } = capture();
    renderer.handle({
      type: 'model_retry',
      turnId: 't',
      attempt: 1,
      delayMs: 6300,
      code: 'provider.server_error',
      message: 'Connection error.',
    });
    expect(out()).toBe(
      '↻ provider.server_error: Connection error. — retrying in 6.3 s (attempt 2)\n',
    );
  });

  it("shows the smart-approval judge's rulings, and nothing for a person's", () => {
    const { renderer, out } = capture();
    const ruling = {
      type: 'approval_resolution' as const,
      turnId: 't',
      requestId: 'r1',
      command: 'rm -rf build',
      reason: 'judged safe — build output is regenerated (recursive delete)',
    };
    renderer.handle({ ...ruling, decision: 'once', decidedBy: 'smart' });
    renderer.handle({ ...ruling, decision: 'deny', decidedBy: 'smart', reason: 'harmful' });
    renderer.handle({ ...ruling, decision: 'once', decidedBy: 'user' });
    expect(out()).toBe(
      '⚖ smart approval approved rm -rf build: judged safe — build output is regenerated (recursive delete)\n' +
        '⚖ smart approval denied rm -rf build: harmful\n',
    );
  });

  it("shows the compressor's warnings under the compression line", () => {
    const { renderer, out } = capture();
    renderer.handle({
      type: 'compression_end',
      turnId: 't',
      ok: true,
      tokensBefore: 91_000,
      tokensAfter: 12_000,
      messagesBefore: 40,
      messagesAfter: 40,
      warnings: ['summary rejected: it was longer than the 30 messages it would replace'],
    });
    expect(out()).toContain(
      '\n⚠️  summary rejected: it was longer than the 30 messages it would replace',
    );
  });
});
