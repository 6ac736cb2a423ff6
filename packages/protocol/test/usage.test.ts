import { describe, expect, it } from 'vitest';
import {
  addUsage,
  emptyUsage,
  FinishReasonSchema,
  promptTokens,
  UsageSchema,
} from '../src/index.js';

describe('Usage', () => {
  it('sums counter-wise and counts cache traffic as prompt tokens', () => {
    const a = { ...emptyUsage(), inputTokens: 10, cacheReadTokens: 90, outputTokens: 5 };
    const b = { ...emptyUsage(), inputTokens: 1, cacheWriteTokens: 3, reasoningTokens: 2 };
    const sum = addUsage(a, b);
    expect(sum).toEqual({
      inputTokens: 11,
      outputTokens: 5,
      cacheReadTokens: 90,
      cacheWriteTokens: 3,
      reasoningTokens: 2,
    });
    expect(promptTokens(sum)).toBe(104);
  });

  it('rejects negative and fractional counts', () => {
    expect(UsageSchema.safeParse({ ...emptyUsage(), inputTokens: -1 }).success).toBe(false);
    expect(UsageSchema.safeParse({ ...emptyUsage(), outputTokens: 1.5 }).success).toBe(false);
  });

  it('normalizes finish reasons to a closed set', () => {
    expect(FinishReasonSchema.parse('tool_calls')).toBe('tool_calls');
    expect(FinishReasonSchema.safeParse('end_turn').success).toBe(false);
  });
});
