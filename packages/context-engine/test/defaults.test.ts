import type { ChatMessage, Usage } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import {
  BASIC_COMPRESS_OPTIONS,
  type CompressionResult,
  ContextEngine,
  compressOptionsFor,
  shouldAnnounceCompaction,
} from '../src/index.js';
import { describeContextEngineContract, longConversation } from '../src/testing.js';
import { KeepLastNEngine } from './support/keep-last-n-engine.js';

/** Implements only the required members; never compresses anything. */
class RequiredOnlyEngine extends ContextEngine {
  readonly name = 'required-only';
  updateFromResponse(_usage: Usage): void {}
  shouldCompress(_promptTokens?: number): boolean {
    return false;
  }
  compress(messages: readonly ChatMessage[]): Promise<CompressionResult> {
    const n = messages.length;
    const stats = { messagesBefore: n, messagesAfter: n, tokensBefore: 0, tokensAfter: 0 };
    return Promise.resolve({ messages: [...messages], changed: false, stats });
  }
}

describe('ContextEngine optional members', () => {
  it('have safe defaults for an engine that implements only the required members', async () => {
    const engine = new RequiredOnlyEngine();
    const messages = longConversation(2);
    expect(engine.acceptedCompressOptions).toEqual(BASIC_COMPRESS_OPTIONS);
    expect(engine.quietAutoCompaction).toBe(false);
    await expect(engine.selectContext(messages)).resolves.toBe(messages);
    await expect(engine.onTurnComplete(messages)).resolves.toBeUndefined();
    const pruned = engine.pruneToolResultsOnly(messages);
    expect(pruned.messages).toBe(messages);
    expect(pruned.reclaimedTokens).toBe(0);
    expect(engine.shouldCompressPreflight(messages)).toBe(false);
    expect(engine.shouldDeferPreflightToRealUsage(1_000_000)).toBe(false);
    expect(engine.hasContentToCompress(messages)).toBe(true);
    await expect(engine.onSessionStart('s')).resolves.toBeUndefined();
    await expect(engine.onSessionEnd('s', messages)).resolves.toBeUndefined();
    await expect(engine.onSessionReset()).resolves.toBeUndefined();
    expect(engine.getToolSchemas()).toEqual([]);
    await expect(engine.handleToolCall('anything', {})).resolves.toBeUndefined();
    expect(engine.getStatus()).toEqual({ engine: 'required-only', compressionCount: 0 });
    expect(engine.updateModel({ model: 'm', contextLength: 1000 })).toBeUndefined();
  });
});

describeContextEngineContract(
  'an engine with only the required members',
  () => new RequiredOnlyEngine(),
);

describe('compressOptionsFor', () => {
  const all = {
    currentTokens: 900,
    focusTopic: 'tests',
    force: true,
    memoryContext: 'user prefers pnpm',
    signal: new AbortController().signal,
  };

  it('passes an engine with the default declaration only the basic options', () => {
    expect(compressOptionsFor(new RequiredOnlyEngine(), all)).toEqual({
      currentTokens: 900,
      focusTopic: 'tests',
      force: true,
      memoryContext: 'user prefers pnpm',
    });
  });

  it('passes an engine the newer options it declares, and nothing it does not', () => {
    const newer = { acceptedCompressOptions: ['force', 'signal'] as const };
    expect(compressOptionsFor(newer, all)).toEqual({ force: true, signal: all.signal });
    expect(compressOptionsFor({ acceptedCompressOptions: [] }, all)).toEqual({});
  });

  it('drops undefined values and unknown keys', () => {
    const options = { force: undefined, focusTopic: 'x', bogus: 1 } as unknown as Parameters<
      typeof compressOptionsFor
    >[1];
    expect(compressOptionsFor(new RequiredOnlyEngine(), options)).toEqual({ focusTopic: 'x' });
  });

  it('is what the engine receives when the host calls through it', async () => {
    const engine = new KeepLastNEngine(128_000);
    await engine.compress(longConversation(3), compressOptionsFor(engine, all));
    expect(engine.received[0]).not.toHaveProperty('signal');
  });
});

describe('shouldAnnounceCompaction', () => {
  const quiet = { quietAutoCompaction: true };
  const loud = { quietAutoCompaction: false };

  it('silences only routine automatic successes of a quiet engine', () => {
    expect(shouldAnnounceCompaction(quiet, { trigger: 'threshold', ok: true })).toBe(false);
    expect(shouldAnnounceCompaction(quiet, { trigger: 'preflight', ok: true })).toBe(false);
    expect(shouldAnnounceCompaction(quiet, { trigger: 'manual', ok: true })).toBe(true);
    expect(shouldAnnounceCompaction(quiet, { trigger: 'threshold', ok: false })).toBe(true);
    expect(shouldAnnounceCompaction(loud, { trigger: 'threshold', ok: true })).toBe(true);
  });
});
