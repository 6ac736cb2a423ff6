/** A minimal ApprovalHandler for tests: a pretend person who gives a scripted answer. */
import type { ApprovalDecision } from '@hermes/protocol';
import { type ApprovalContext, ApprovalHandler } from '../../src/index.js';
import type { ScriptedHuman } from '../../src/testing.js';

/**
 * Answers with the scripted decision as soon as it is asked (on the next microtask, so no timer
 * races the request's own timeout), or never when it is `null`. Honours the signal and the
 * timeout as the seam requires, and records every prompt it showed.
 */
export class ScriptedApprovalHandler extends ApprovalHandler {
  readonly prompts: Array<{ command: string; reason: string; ctx: ApprovalContext }> = [];

  constructor(private readonly human: ScriptedHuman) {
    super();
  }

  request(command: string, reason: string, ctx: ApprovalContext): Promise<ApprovalDecision> {
    const { signal, timeoutMs } = ctx;
    if (signal?.aborted) return Promise.resolve('deny');
    this.prompts.push({ command, reason, ctx });
    return new Promise((resolve) => {
      const timers: Array<ReturnType<typeof setTimeout>> = [];
      const settle = (decision: ApprovalDecision): void => {
        for (const timer of timers) clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        resolve(decision);
      };
      const onAbort = (): void => settle('deny');
      signal?.addEventListener('abort', onAbort, { once: true });
      if (timeoutMs !== undefined) timers.push(setTimeout(() => settle('deny'), timeoutMs));
      const { answer } = this.human;
      if (answer !== null) queueMicrotask(() => settle(answer));
    });
  }
}

/** A handler that reaches nobody and so, as the seam requires, always denies. */
export class DenyAllApprovalHandler extends ApprovalHandler {
  async request(): Promise<ApprovalDecision> {
    return 'deny';
  }
}
