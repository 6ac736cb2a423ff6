/** The contract's checks must catch broken handlers, not just pass good ones. */
import type { ApprovalDecision } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { ApprovalHandler } from '../src/index.js';
import {
  checkDeniesOnTimeout,
  checkDeniesWhenAbortedWhileWaiting,
  checkDeniesWhenAlreadyAborted,
  checkResolvesToDecision,
  checkReturnsScriptedAnswer,
} from '../src/testing.js';
import { ScriptedApprovalHandler } from './support/scripted-approval-handler.js';

/** Matches a `ContractViolation` (the one way a check fails) whose message matches `pattern`. */
const violation = (pattern: RegExp) =>
  expect.objectContaining({ name: 'ContractViolation', message: expect.stringMatching(pattern) });

/** Fails open: always allows, ignoring the signal and the timeout. */
class RubberStamp extends ApprovalHandler {
  async request(): Promise<ApprovalDecision> {
    return 'once';
  }
}

/** Waits for a person forever, ignoring the signal and the timeout. */
class NeverAnswers extends ApprovalHandler {
  request(): Promise<ApprovalDecision> {
    return new Promise(() => {});
  }
}

/** Answers with something that is not a decision. */
class SaysYes extends ApprovalHandler {
  async request(): Promise<ApprovalDecision> {
    return 'yes' as ApprovalDecision;
  }
}

describe('approval contract checks reject broken handlers', () => {
  it('an answer outside the four decisions fails', async () => {
    await expect(checkResolvesToDecision(new SaysYes())).rejects.toThrow(
      violation(/not once, session/),
    );
  });

  it('a handler that never settles fails within the deadline', async () => {
    await expect(checkResolvesToDecision(new NeverAnswers(), 100)).rejects.toThrow(
      violation(/did not settle within 100 ms/),
    );
  });

  it('a handler that ignores an already-aborted signal fails', async () => {
    await expect(checkDeniesWhenAlreadyAborted(new RubberStamp())).rejects.toThrow(
      violation(/already-aborted signal resolved "once"/),
    );
  });

  it('a handler that ignores an abort while waiting fails', async () => {
    await expect(checkDeniesWhenAbortedWhileWaiting(new NeverAnswers(), 100)).rejects.toThrow(
      violation(/did not settle/),
    );
  });

  it('a handler that ignores timeoutMs fails', async () => {
    await expect(checkDeniesOnTimeout(new NeverAnswers(), 50, 100)).rejects.toThrow(
      violation(/timeoutMs 50 did not settle within 150 ms/),
    );
  });

  it('a handler that returns something other than the scripted answer fails', async () => {
    const handler = new ScriptedApprovalHandler({ answer: 'once' });
    await expect(checkReturnsScriptedAnswer(handler, 'always')).rejects.toThrow(
      violation(/answered "always" but request\(\) resolved "once"/),
    );
  });
});
