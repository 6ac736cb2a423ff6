/**
 * A handler that implements only the required members must keep working as the seam grows:
 * every optional member needs a safe default, listed here. Adding a member to the class without
 * listing it (and its default) here fails this test.
 */
import type { ApprovalDecision } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { ApprovalHandler, requestApproval } from '../src/index.js';

class OnlyRequired extends ApprovalHandler {
  async request(): Promise<ApprovalDecision> {
    return 'once';
  }
}

/** Optional members of ApprovalHandler and their documented defaults: none yet. */
const OPTIONAL_MEMBERS: readonly string[] = [];

describe('ApprovalHandler defaults', () => {
  it('has no members beyond request() and the documented optional ones', () => {
    const own = Object.getOwnPropertyNames(ApprovalHandler.prototype).filter(
      (name) => name !== 'constructor',
    );
    expect(own.sort()).toEqual([...OPTIONAL_MEMBERS].sort());
  });

  it('a subclass with only request() is a working handler', async () => {
    const handler = new OnlyRequired();
    expect(handler).toBeInstanceOf(ApprovalHandler);
    await expect(
      requestApproval(handler, 'ls', 'test', { sessionId: 's', platform: 'cli' }),
    ).resolves.toEqual({ decision: 'once', decidedBy: 'user' });
  });
});
