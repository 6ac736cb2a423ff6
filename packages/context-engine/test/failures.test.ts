import { HermesError } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { ContextCompressor, parseSections, type Summarizer } from '../src/index.js';
import {
  conversation,
  fakeClock,
  scriptedSummarizer,
  templateSummary,
  textOf,
  usage,
} from './support/conversations.js';

const never: Summarizer = ({ signal }) =>
  new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));

const failing = (error: unknown) => scriptedSummarizer(() => Promise.reject(error));

describe('summarizer failures', () => {
  it('falls back on a timeout, keeping every user message and a session_search pointer', async () => {
    const engine = new ContextCompressor({
      contextLength: 200_000,
      tailTokens: 500,
      summaryTimeoutMs: 50,
      summarizer: never,
    });
    const input = conversation(12);
    const result = await engine.compress(input, { force: true });
    expect(result.changed).toBe(true);
    expect(result.outcome).toBe('fallback');
    const summary = result.summary ?? '';
    for (const section of [
      'Goals',
      'Progress',
      'Commands and Results',
      'Pending TODOs (verbatim)',
    ]) {
      expect(parseSections(summary).has(section)).toBe(true);
    }
    const kept = result.messages.map(textOf).join('\n');
    for (const message of input.filter((m) => m.role === 'user')) {
      expect(`${kept}\n${summary}`).toContain(textOf(message));
    }
    expect(parseSections(summary).get('Commands and Results')).toContain('npm test -w p5');
    expect(summary).toContain('session_search');
    expect(result.warnings.join(' ')).toMatch(/fallback summary kept every user message/);
    expect(result.summarizedRange).toBeDefined();
  });

  it('adds a fallback to the previous summary instead of replacing it', async () => {
    const summarizer = scriptedSummarizer((_r, call) =>
      call === 1
        ? templateSummary('goal one', { Decisions: 'decision one' })
        : Promise.reject(new Error('down')),
    );
    const engine = new ContextCompressor({ contextLength: 200_000, tailTokens: 500, summarizer });
    const first = await engine.compress(conversation(12), { force: true });
    const second = await engine.compress([...first.messages, ...conversation(8).slice(1)], {
      force: true,
    });
    expect(second.outcome).toBe('fallback');
    const sections = parseSections(second.summary ?? '');
    expect(sections.get('Decisions')).toBe('decision one');
    expect(sections.get('Goals')).toMatch(/^goal one\n1\. Request 0:/);
    const users = sections.get('User Messages (verbatim, newest first)') ?? '';
    for (const n of [0, 1, 5]) expect(users).toContain(`Request ${n}:`);
  });

  it('falls back on any other error too', async () => {
    const engine = new ContextCompressor({
      contextLength: 200_000,
      tailTokens: 500,
      summarizer: failing(new Error('upstream 500')),
    });
    const result = await engine.compress(conversation(12), { force: true });
    expect(result.outcome).toBe('fallback');
    expect(result.changed).toBe(true);
  });

  it('aborts on an authentication error and leaves the messages unchanged', async () => {
    const engine = new ContextCompressor({
      contextLength: 200_000,
      tailTokens: 500,
      summarizer: failing(new HermesError('provider.auth', 'key rejected')),
    });
    const input = conversation(12);
    const result = await engine.compress(input, { force: true });
    expect(result.changed).toBe(false);
    expect(result.outcome).toBe('auth_error');
    expect(result.messages).toEqual(input);
    expect(result.warnings.join(' ')).toMatch(/authentication/);
    expect(engine.getStatus().compressionCount).toBe(0);
  });

  it('leaves the messages unchanged when the host cancels', async () => {
    const controller = new AbortController();
    let called: () => void = () => undefined;
    const summarizerCalled = new Promise<void>((resolve) => {
      called = resolve;
    });
    const engine = new ContextCompressor({
      contextLength: 200_000,
      tailTokens: 500,
      summarizer: (request) => {
        called();
        return never(request);
      },
    });
    const pending = engine.compress(conversation(12), { force: true, signal: controller.signal });
    // Cancel once the summarizer is really running, not at some moment that merely tends to be.
    await summarizerCalled;
    controller.abort();
    const result = await pending;
    expect(result.outcome).toBe('cancelled');
    expect(result.changed).toBe(false);
  });

  it('backs the summarizer off 60 → 300 → 900 s, using the fallback meanwhile', async () => {
    const clock = fakeClock();
    const summarizer = failing(new Error('down'));
    const engine = new ContextCompressor({
      contextLength: 200_000,
      tailTokens: 500,
      maxAttemptsPerTurn: 100,
      summarizer,
      now: clock.now,
    });
    const input = conversation(12);
    const run = () => engine.compress(input, { force: true });
    const start = clock.now();
    expect((await run()).session.compressionCooldownUntil).toBe(start + 60_000);
    clock.advance(59_000);
    expect((await run()).outcome).toBe('fallback');
    expect(summarizer.requests).toHaveLength(1);
    clock.advance(1_000);
    expect((await run()).session.compressionCooldownUntil).toBe(clock.now() + 300_000);
    expect(summarizer.requests).toHaveLength(2);
    clock.advance(299_000);
    await run();
    expect(summarizer.requests).toHaveLength(2);
    clock.advance(1_000);
    expect((await run()).session.compressionCooldownUntil).toBe(clock.now() + 900_000);
    clock.advance(900_000);
    expect((await run()).session.compressionCooldownUntil).toBe(clock.now() + 900_000);
    expect(summarizer.requests).toHaveLength(4);
  });

  it('cancels at once when the host signal was aborted before the summarizer ran', async () => {
    const controller = new AbortController();
    controller.abort();
    const summarizer = scriptedSummarizer(never);
    const engine = new ContextCompressor({ contextLength: 200_000, tailTokens: 500, summarizer });
    const result = await engine.compress(conversation(12), {
      force: true,
      signal: controller.signal,
    });
    expect(result.outcome).toBe('cancelled');
    expect(result.changed).toBe(false);
  });

  it('names the real reason during the backoff, not a missing summarizer', async () => {
    const clock = fakeClock();
    const summarizer = failing(new HermesError('provider.rate_limited', 'slow down sk-secret'));
    const engine = new ContextCompressor({
      contextLength: 200_000,
      tailTokens: 500,
      maxAttemptsPerTurn: 100,
      summarizer,
      now: clock.now,
    });
    const input = conversation(12);
    const first = await engine.compress(input, { force: true });
    expect(first.warnings.join(' ')).toMatch(/provider\.rate_limited/);
    clock.advance(15_000);
    const during = await engine.compress(input, { force: true });
    expect(summarizer.requests).toHaveLength(1);
    expect(during.outcome).toBe('fallback');
    const warning = during.warnings.join(' ');
    expect(warning).not.toMatch(/no summarizer/);
    expect(warning).toMatch(/failed 1 time .*provider\.rate_limited.*retrying in 45 s/);
    expect(warning).not.toContain('sk-secret');
    expect(parseSections(during.summary ?? '').get('Progress')).toMatch(/retrying in 45 s/);

    const unconfigured = new ContextCompressor({ contextLength: 200_000, tailTokens: 500 });
    const plain = await unconfigured.compress(input, { force: true });
    expect(plain.warnings.join(' ')).toMatch(/no summarizer configured/);
  });

  it('clears the backoff after a successful summary', async () => {
    const clock = fakeClock();
    const summarizer = scriptedSummarizer((_r, call) =>
      call === 1 ? Promise.reject(new Error('down')) : templateSummary('ok'),
    );
    const engine = new ContextCompressor({
      contextLength: 200_000,
      tailTokens: 500,
      summarizer,
      now: clock.now,
    });
    await engine.compress(conversation(12), { force: true });
    clock.advance(60_000);
    const result = await engine.compress(conversation(12), { force: true });
    expect(result.outcome).toBe('summarized');
    expect(result.session.compressionCooldownUntil).toBeNull();
  });
});

describe('breaker, attempts and re-arm', () => {
  const over = 90_000;
  const make = (clock = fakeClock()) => ({
    clock,
    engine: new ContextCompressor({
      contextLength: 100_000,
      thresholdPercent: 0.85,
      tailTokens: 500,
      summarizer: scriptedSummarizer(),
      now: clock.now,
    }),
  });

  it('trips after two ineffective compressions in a row, then probes every 5 minutes', async () => {
    const { engine, clock } = make();
    const ineffective = async () => {
      await engine.compress(conversation(12), { currentTokens: over });
      engine.updateFromResponse(usage(over));
      await engine.onTurnComplete([]);
    };
    await ineffective();
    expect(engine.shouldCompress(over)).toBe(true);
    await ineffective();
    expect(engine.getStatus()).toMatchObject({ breakerTripped: true, compressionFailureStreak: 2 });
    expect(engine.shouldCompress(over)).toBe(false);
    clock.advance(299_000);
    expect(engine.shouldCompress(over)).toBe(false);
    clock.advance(1_000);
    expect(engine.shouldCompress(over)).toBe(true);
    await ineffective();
    expect(engine.shouldCompress(over)).toBe(false);
    clock.advance(300_000);
    expect(engine.shouldCompress(over)).toBe(true);
    // A probe the provider confirms closes the breaker.
    await engine.compress(conversation(12), { currentTokens: over });
    engine.updateFromResponse(usage(40_000));
    expect(engine.getStatus()).toMatchObject({
      breakerTripped: false,
      compressionFailureStreak: 0,
    });
    expect(engine.shouldCompress(over)).toBe(true);
  });

  it('allows 3 attempts, re-armed only by reported prompt tokens under the threshold', async () => {
    const { engine } = make();
    const input = conversation(12);
    for (let i = 0; i < 3; i++) {
      expect((await engine.compress(input, { force: true })).changed).toBe(true);
      engine.updateFromResponse(usage(over));
    }
    const blocked = await engine.compress(input, { force: true });
    expect(blocked.outcome).toBe('attempt_limit');
    expect(blocked.changed).toBe(false);
    expect(blocked.messages).toEqual(input);
    expect(engine.shouldCompress(over)).toBe(false);
    engine.updateFromResponse(usage(over));
    expect((await engine.compress(input, { force: true })).outcome).toBe('attempt_limit');
    engine.updateFromResponse(usage(50_000));
    expect((await engine.compress(input, { force: true })).changed).toBe(true);
  });

  it('stays quiet for 5 minutes after finding nothing to compress', async () => {
    const { engine, clock } = make();
    const result = await engine.compress(conversation(1), { force: true });
    expect(result.outcome).toBe('nothing_to_compress');
    expect(engine.hasContentToCompress(conversation(1))).toBe(false);
    expect(engine.shouldCompress(over)).toBe(false);
    clock.advance(300_000);
    expect(engine.shouldCompress(over)).toBe(true);
  });
});
