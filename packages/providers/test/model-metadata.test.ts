import { describe, expect, it } from 'vitest';
import {
  assertMinimumContext,
  DEFAULT_CONTEXT_WINDOW,
  DEFAULT_MAX_OUTPUT_TOKENS,
  lookupModelLimits,
  MINIMUM_CONTEXT_LENGTH,
  normalizeModelId,
  parseModelLimitOverrides,
  resolveModelLimits,
} from '../src/models/index.js';

describe('normalizeModelId', () => {
  it.each([
    ['anthropic/claude-sonnet-4.5', 'claude-sonnet-4.5'],
    ['claude-sonnet-4-5-20250929', 'claude-sonnet-4.5-20250929'],
    ['us.anthropic.claude-3-5-sonnet-20240620-v1:0', 'claude-3.5-sonnet-20240620-v1'],
    ['models/gemini-2.5-pro', 'gemini-2.5-pro'],
    ['llama3.1:70b', 'llama3.1'],
    ['meta-llama/Llama-3.1-70B-Instruct', 'llama-3.1-70b-instruct'],
    ['GPT-4o', 'gpt-4o'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeModelId(input)).toBe(expected);
  });
});

describe('lookupModelLimits', () => {
  it('finds exact ids', () => {
    expect(lookupModelLimits('gpt-4o')).toEqual({
      contextWindow: 128_000,
      maxOutputTokens: 16_384,
    });
    expect(lookupModelLimits('gpt-4.1')?.contextWindow).toBe(1_047_576);
    expect(lookupModelLimits('o3')?.maxOutputTokens).toBe(100_000);
    expect(lookupModelLimits('gpt-5')).toEqual({
      contextWindow: 400_000,
      maxOutputTokens: 128_000,
    });
    expect(lookupModelLimits('gemini-2.5-pro')?.maxOutputTokens).toBe(65_536);
    expect(lookupModelLimits('deepseek-reasoner')?.contextWindow).toBe(131_072);
  });

  it('finds vendor-prefixed OpenRouter ids with dotted versions', () => {
    expect(lookupModelLimits('anthropic/claude-sonnet-4.5')).toEqual(
      lookupModelLimits('claude-sonnet-4-5'),
    );
    expect(lookupModelLimits('anthropic/claude-3.7-sonnet')?.maxOutputTokens).toBe(64_000);
    expect(lookupModelLimits('google/gemini-2.0-flash-001')?.maxOutputTokens).toBe(8_192);
    expect(lookupModelLimits('meta-llama/llama-3.3-70b-instruct')?.contextWindow).toBe(131_072);
  });

  it('prefers the longest known prefix at a word boundary', () => {
    expect(lookupModelLimits('gpt-4o-mini-2024-07-18')).toEqual(lookupModelLimits('gpt-4o-mini'));
    expect(lookupModelLimits('gpt-4.1-mini-2025-04-14')).toEqual(lookupModelLimits('gpt-4.1-mini'));
    expect(lookupModelLimits('claude-opus-4-1-20250805')?.maxOutputTokens).toBe(32_000);
    expect(lookupModelLimits('claude-sonnet-4-20250514')?.maxOutputTokens).toBe(64_000);
    expect(lookupModelLimits('claude-sonnet-4@20250514')?.maxOutputTokens).toBe(64_000);
    expect(lookupModelLimits('gpt-4-0613')?.contextWindow).toBe(8_192);
    // `.` is not a boundary: an unknown point release does not inherit an older model's limits.
    expect(lookupModelLimits('gpt-4.7')).toBeUndefined();
    expect(lookupModelLimits('gpt-4omni')).toBeUndefined();
  });

  it('knows nothing of unknown models', () => {
    expect(lookupModelLimits('acme-brain-9000')).toBeUndefined();
  });
});

describe('resolveModelLimits', () => {
  it('uses the table, and says so', () => {
    expect(resolveModelLimits('claude-3-5-sonnet-latest')).toEqual({
      contextWindow: 200_000,
      maxOutputTokens: 8_192,
      source: 'table',
      meetsMinimumContext: true,
    });
  });

  it('falls back to the documented default for unknown models', () => {
    expect(resolveModelLimits('acme-brain-9000')).toEqual({
      contextWindow: DEFAULT_CONTEXT_WINDOW,
      maxOutputTokens: DEFAULT_MAX_OUTPUT_TOKENS,
      source: 'default',
      meetsMinimumContext: true,
    });
    expect(DEFAULT_CONTEXT_WINDOW).toBe(128_000);
  });

  it('lets config overrides win, field by field, matched exactly or normalized', () => {
    const overrides = parseModelLimitOverrides({
      'gpt-4o': { contextWindow: 64_000 },
      'llama3.1': { contextWindow: 32_768, maxOutputTokens: 60_000 },
      'acme-brain-9000': { maxOutputTokens: 4_000 },
    });
    expect(resolveModelLimits('gpt-4o', overrides)).toMatchObject({
      contextWindow: 64_000,
      maxOutputTokens: 16_384,
      source: 'override',
    });
    // Output is clamped to the window.
    expect(resolveModelLimits('llama3.1:8b', overrides)).toMatchObject({
      contextWindow: 32_768,
      maxOutputTokens: 32_768,
      source: 'override',
      meetsMinimumContext: false,
    });
    expect(resolveModelLimits('acme-brain-9000', overrides)).toMatchObject({
      contextWindow: DEFAULT_CONTEXT_WINDOW,
      maxOutputTokens: 4_000,
      source: 'override',
    });
  });

  it('rejects malformed overrides', () => {
    expect(() => parseModelLimitOverrides({ 'gpt-4o': { contextWindow: -1 } })).toThrow(
      /gpt-4o\.contextWindow/,
    );
    expect(() => parseModelLimitOverrides({ 'gpt-4o': { context: 1 } })).toThrow();
  });

  it('reports the 64K floor without inflating a small window', () => {
    expect(MINIMUM_CONTEXT_LENGTH).toBe(64_000);
    const small = resolveModelLimits('gpt-4');
    expect(small).toMatchObject({ contextWindow: 8_192, meetsMinimumContext: false });
    expect(() => assertMinimumContext('gpt-4', small)).toThrow(/at least 64000/);
    const big = resolveModelLimits('gpt-4o');
    expect(() => assertMinimumContext('gpt-4o', big)).not.toThrow();
    expect(resolveModelLimits('gpt-4', {}, 8_000).meetsMinimumContext).toBe(true);
  });
});
