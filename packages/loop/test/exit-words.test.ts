import { ExitReasonSchema } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { describeExitReason } from '../src/index.js';

describe('describeExitReason', () => {
  it('has its own words for every exit reason but the two failures, and reads unknown text as a failure', () => {
    const generic = ExitReasonSchema.options.filter(
      (reason) => describeExitReason(reason) === 'the turn failed',
    );
    expect(generic).toEqual(['error', 'unknown']);
    expect(describeExitReason('run_budget_exhausted')).toBe('the run budget ran out');
    expect(describeExitReason('no_such_reason')).toBe('the turn failed');
  });
});
