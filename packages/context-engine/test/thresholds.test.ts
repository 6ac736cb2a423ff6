import { describe, expect, it } from 'vitest';
import {
  ContextCompressor,
  compressionThreshold,
  defaultThresholdPercent,
  tailTokenBudget,
} from '../src/index.js';
import { usage } from './support/conversations.js';

describe('compressionThreshold', () => {
  it.each([
    [64_000, 0.5, 54_400],
    [32_000, 0.5, 27_200],
    [200_000, 0.5, 100_000],
    [100_000, 0.5, 64_000],
    [100_000, 0.85, 85_000],
  ])('(%i, %d) → %i', (window, percent, expected) => {
    expect(compressionThreshold(window, percent)).toBe(expected);
  });

  it('subtracts the reserved output but never goes under the 64K floor', () => {
    expect(compressionThreshold(1_000_000, 0.5, 20_000)).toBe(480_000);
    expect(compressionThreshold(130_000, 0.5, 20_000)).toBe(64_000);
  });

  it('defaults to 0.75 under a 512K window and 0.5 from 512K on', () => {
    expect(defaultThresholdPercent(200_000)).toBe(0.75);
    expect(defaultThresholdPercent(512_000)).toBe(0.5);
    expect(new ContextCompressor({ contextLength: 200_000 }).thresholdTokens).toBe(150_000);
    expect(new ContextCompressor({ contextLength: 1_000_000 }).thresholdTokens).toBe(500_000);
  });

  it('clamps the tail budget to 10K–25K tokens around 2.5% of the window', () => {
    expect(tailTokenBudget(100_000)).toBe(10_000);
    expect(tailTokenBudget(800_000)).toBe(20_000);
    expect(tailTokenBudget(2_000_000)).toBe(25_000);
  });
});

describe('ContextCompressor.shouldCompress', () => {
  const engine = () => new ContextCompressor({ contextLength: 100_000, thresholdPercent: 0.85 });

  it('follows the threshold table for a 100K window at 0.85', () => {
    const e = engine();
    expect(e.thresholdTokens).toBe(85_000);
    expect(e.shouldCompress(90_000)).toBe(true);
    expect(e.shouldCompress(85_000)).toBe(true);
    expect(e.shouldCompress(50_000)).toBe(false);
  });

  it('uses the last reported prompt tokens when called without an argument', () => {
    const e = engine();
    e.updateFromResponse(usage(86_000));
    expect(e.shouldCompress()).toBe(true);
    e.updateFromResponse(usage(40_000));
    expect(e.shouldCompress()).toBe(false);
  });

  it('recomputes the threshold when the model changes', () => {
    const e = engine();
    e.updateModel({ model: 'bigger', contextLength: 200_000 });
    expect(e.thresholdTokens).toBe(170_000);
    expect(e.shouldCompress(90_000)).toBe(false);
    expect(e.getStatus()).toMatchObject({ model: 'bigger', thresholdTokens: 170_000 });
  });

  it('rejects bad settings with an error naming the field', () => {
    expect(() => new ContextCompressor({ contextLength: 100_000, thresholdPercent: 2 })).toThrow(
      /thresholdPercent/,
    );
    expect(() => new ContextCompressor({ contextLength: -1 })).toThrow(/contextLength/);
  });
});
