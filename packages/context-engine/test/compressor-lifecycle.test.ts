import type { ChatMessage } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { ContextCompressor, estimateTokens } from '../src/index.js';
import { conversation, scriptedSummarizer, toolExchange, usage } from './support/conversations.js';

const make = () =>
  new ContextCompressor({
    contextLength: 200_000,
    tailTokens: 500,
    summarizer: scriptedSummarizer(),
  });

describe('compression count and warnings', () => {
  it('counts compressions and warns from the second one on', async () => {
    const engine = make();
    const first = await engine.compress(conversation(12), { force: true });
    expect(first.session.compressionCount).toBe(1);
    expect(first.warnings).toEqual([]);
    const second = await engine.compress([...first.messages, ...conversation(10).slice(1)], {
      force: true,
    });
    expect(second.session.compressionCount).toBe(2);
    expect(second.warnings.join(' ')).toMatch(/compressed 2 times.*\/new/);
    expect(engine.getStatus()).toMatchObject({ compressionCount: 2 });
    expect(second.stats.messagesBefore).toBe(first.messages.length + 41);
    expect(second.stats.messagesAfter).toBe(second.messages.length);
  });

  it('reports given token figures before and estimated savings after', async () => {
    const engine = make();
    const input = conversation(12);
    const result = await engine.compress(input, { force: true, currentTokens: 30_000 });
    expect(result.stats.tokensBefore).toBe(30_000);
    const saved = estimateTokens(input) - estimateTokens(result.messages);
    expect(result.stats.tokensAfter).toBe(30_000 - saved);
  });

  it('restores persisted state on session start and forgets it on reset', async () => {
    const engine = make();
    await engine.onSessionStart('s1', {
      compressionCount: 4,
      compressionFailureStreak: 2,
      compressionCooldownUntil: null,
      pruneRearmTokens: 70_000,
    });
    expect(engine.sessionState()).toEqual({
      compressionCount: 4,
      compressionCooldownUntil: null,
      compressionFailureStreak: 2,
      pruneRearmTokens: 70_000,
    });
    expect(engine.getStatus()).toMatchObject({ breakerTripped: true });
    const result = await engine.compress(conversation(12), { force: true });
    expect(result.summarizedRange?.start).toBe(1);
    await engine.onSessionReset();
    expect(engine.sessionState().compressionCount).toBe(0);
    expect(engine.getStatus()).toMatchObject({ breakerTripped: false });
  });

  it('declares the signal option and honours quietAutoCompaction', () => {
    expect(make().acceptedCompressOptions).toContain('signal');
    expect(
      new ContextCompressor({ contextLength: 1_000, quietAutoCompaction: true })
        .quietAutoCompaction,
    ).toBe(true);
  });
});

describe('preflight', () => {
  it('estimates messages plus tool schemas against the threshold', () => {
    const engine = new ContextCompressor({ contextLength: 100_000, thresholdPercent: 0.85 });
    const big: ChatMessage[] = [{ role: 'user', content: 'x'.repeat(4 * 84_000) }];
    expect(engine.shouldCompressPreflight(big)).toBe(false);
    engine.setToolSchemas([
      {
        type: 'function',
        function: { name: 't', description: 'd'.repeat(8_000), parameters: { type: 'object' } },
      },
    ]);
    expect(engine.shouldCompressPreflight(big)).toBe(true);
  });

  it('defers to real usage when the provider last reported the prompt under the threshold', () => {
    const engine = new ContextCompressor({ contextLength: 100_000, thresholdPercent: 0.85 });
    expect(engine.shouldDeferPreflightToRealUsage(90_000)).toBe(false);
    engine.updateFromResponse(usage(60_000));
    expect(engine.shouldDeferPreflightToRealUsage(90_000)).toBe(true);
    expect(engine.shouldDeferPreflightToRealUsage(120_000)).toBe(false);
    expect(engine.projectPromptTokens([{ role: 'user', content: 'x'.repeat(400) }])).toBe(60_104);
  });
});

describe('proactive prune', () => {
  /** Old, bulky tool results followed by 20 recent small messages. */
  const bulky = (): ChatMessage[] => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'go' },
    ];
    for (let i = 0; i < 6; i++) {
      messages.push(
        ...toolExchange(`c${i}`, 'terminal', { command: `build ${i}` }, `${i}\n`.repeat(2_000)),
      );
    }
    for (let i = 0; i < 10; i++) {
      messages.push({ role: 'user', content: `q${i}` }, { role: 'assistant', content: `a${i}` });
    }
    return messages;
  };

  it('is off by default and returns the very input array', () => {
    const input = bulky();
    const result = make().pruneToolResultsOnly(input, { currentTokens: 1_000_000 });
    expect(result.messages).toBe(input);
    expect(result.reclaimedTokens).toBe(0);
  });

  it('prunes old tool results past the trigger, then waits for the re-arm line', () => {
    const engine = new ContextCompressor({ contextLength: 1_000_000, proactivePruneTokens: 5_000 });
    const input = bulky();
    const size = estimateTokens(input);
    const first = engine.pruneToolResultsOnly(input, { currentTokens: size });
    expect(first.reclaimedTokens).toBeGreaterThanOrEqual(4_096);
    expect(first.messages).not.toBe(input);
    expect(first.messages.slice(-20)).toEqual(input.slice(-20));
    const rearm = engine.sessionState().pruneRearmTokens;
    expect(rearm).toBe(
      size - first.reclaimedTokens + Math.max(first.reclaimedTokens, 5_000, 4_096),
    );
    const again = engine.pruneToolResultsOnly(input, { currentTokens: rearm - 1 });
    expect(again.messages).toBe(input);
  });

  it('commits nothing when it would reclaim under 4,096 tokens', () => {
    const engine = new ContextCompressor({ contextLength: 1_000_000, proactivePruneTokens: 100 });
    const input = conversation(3);
    const result = engine.pruneToolResultsOnly(input, { currentTokens: 10_000 });
    expect(result.messages).toBe(input);
    expect(result.reclaimedTokens).toBe(0);
    expect(engine.sessionState().pruneRearmTokens).toBe(0);
  });
});
