import type { ApprovalDecision } from '@hermes/protocol';
import { describe, expect, it, vi } from 'vitest';
import {
  type ApprovalContext,
  ApprovalHandler,
  type ApprovalOutcome,
  isApproved,
  requestApproval,
} from '../src/index.js';
import { ScriptedApprovalHandler } from './support/scripted-approval-handler.js';

const ctx: ApprovalContext = { sessionId: 's1', platform: 'cli', patternKey: 'recursive_delete' };

/** Records the signal it was given and never answers. */
class Silent extends ApprovalHandler {
  signal: AbortSignal | undefined;
  calls = 0;
  request(_command: string, _reason: string, context: ApprovalContext): Promise<ApprovalDecision> {
    this.calls += 1;
    this.signal = context.signal;
    return new Promise(() => {});
  }
}

describe('requestApproval', () => {
  it('passes the handler answer through, decided by the user', async () => {
    const handler = new ScriptedApprovalHandler({ answer: 'session' });
    await expect(requestApproval(handler, 'rm -rf x', 'recursive delete', ctx)).resolves.toEqual({
      decision: 'session',
      decidedBy: 'user',
    });
    expect(handler.prompts[0]?.ctx.patternKey).toBe('recursive_delete');
  });

  it('denies without asking when the signal is already aborted', async () => {
    const handler = new Silent();
    const controller = new AbortController();
    controller.abort();
    const outcome = await requestApproval(handler, 'x', 'y', { ...ctx, signal: controller.signal });
    expect(outcome).toEqual({ decision: 'deny', decidedBy: 'policy', failure: 'aborted' });
    expect(handler.calls).toBe(0);
  });

  it('denies at once when the signal aborts, and tells the handler to stop asking', async () => {
    const handler = new Silent();
    const controller = new AbortController();
    const pending = requestApproval(handler, 'x', 'y', { ...ctx, signal: controller.signal });
    expect(handler.signal?.aborted).toBe(false);
    controller.abort();
    await expect(pending).resolves.toMatchObject({ decision: 'deny', failure: 'aborted' });
    expect(handler.signal?.aborted).toBe(true);
  });

  it('denies when the timeout elapses, decided by timeout, even if the handler ignores it', async () => {
    // Fake timers: the deadline is checked on the clock the envelope uses, not on how busy the
    // machine running the test is.
    vi.useFakeTimers();
    try {
      const handler = new Silent();
      let outcome: ApprovalOutcome | undefined;
      const settled = requestApproval(handler, 'x', 'y', { ...ctx, timeoutMs: 30 }).then((o) => {
        outcome = o;
      });
      await vi.advanceTimersByTimeAsync(29);
      expect(outcome).toBeUndefined();
      expect(handler.signal?.aborted).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await settled;
      expect(outcome).toEqual({ decision: 'deny', decidedBy: 'timeout', failure: 'timeout' });
      expect(handler.signal?.aborted).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('denies when the handler throws synchronously or rejects', async () => {
    const boom = new Error('no terminal');
    class Throws extends ApprovalHandler {
      request(): Promise<ApprovalDecision> {
        throw boom;
      }
    }
    class Rejects extends ApprovalHandler {
      async request(): Promise<ApprovalDecision> {
        throw boom;
      }
    }
    for (const handler of [new Throws(), new Rejects()]) {
      await expect(requestApproval(handler, 'x', 'y', ctx)).resolves.toEqual({
        decision: 'deny',
        decidedBy: 'policy',
        failure: 'handler_error',
        cause: boom,
      });
    }
  });

  it('denies an answer that is not one of the four decisions', async () => {
    class Yes extends ApprovalHandler {
      async request(): Promise<ApprovalDecision> {
        return 'yes' as ApprovalDecision;
      }
    }
    await expect(requestApproval(new Yes(), 'x', 'y', ctx)).resolves.toMatchObject({
      decision: 'deny',
      failure: 'invalid_answer',
      cause: 'yes',
    });
  });

  it('isApproved is true for once, session and always only', () => {
    expect(isApproved('once')).toBe(true);
    expect(isApproved('session')).toBe(true);
    expect(isApproved('always')).toBe(true);
    expect(isApproved('deny')).toBe(false);
  });
});
