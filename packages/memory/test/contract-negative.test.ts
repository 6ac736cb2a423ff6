/** Proves the contract can fail: each check and assertion rejects a deliberately broken input. */
import * as shared from '@hermes/protocol/testing';
import { describe, expect, it } from 'vitest';
import type { MemoryProvider } from '../src/index.js';
import {
  assertAbortedPrefetchOutcome,
  checkLifecycle,
  checkName,
  checkOptionalMembers,
  checkPrefetchAbort,
  contractViolation,
  type MemoryProviderCheckContext,
  settleWithin,
} from '../src/testing.js';
import { InMemoryMemoryProvider } from './support/in-memory-provider.js';

/** Matches a `ContractViolation` (the one way a check fails) whose message matches `pattern`. */
const violation = (pattern: RegExp) =>
  expect.objectContaining({ name: 'ContractViolation', message: expect.stringMatching(pattern) });

describe('the shared primitives', () => {
  it('are re-exported from @hermes/protocol/testing, so every check fails the same way', () => {
    expect(contractViolation).toBe(shared.contractViolation);
    expect(settleWithin).toBe(shared.settleWithin);
  });
});

describe('the memory assertions reject bad input', () => {
  it('settleWithin fails on a promise that never settles', async () => {
    await expect(settleWithin(new Promise(() => undefined), 20, 'never')).rejects.toThrow(
      violation(/did not settle/),
    );
    await expect(settleWithin(Promise.resolve('x'), 20, 'now')).resolves.toEqual({
      status: 'fulfilled',
      value: 'x',
    });
  });

  it('assertAbortedPrefetchOutcome rejects a non-string and a non-abort error', () => {
    expect(() =>
      assertAbortedPrefetchOutcome({ status: 'fulfilled', value: '' }, 'p'),
    ).not.toThrow();
    expect(() => assertAbortedPrefetchOutcome({ status: 'fulfilled', value: null }, 'p')).toThrow(
      violation(/string/),
    );
    expect(() =>
      assertAbortedPrefetchOutcome({ status: 'rejected', reason: new Error('db down') }, 'p'),
    ).toThrow(violation(/not an abort error/));
  });
});

/** Ignores the signal and takes far too long. */
class DeafProvider extends InMemoryMemoryProvider {
  override prefetch(): Promise<string> {
    return new Promise((resolve) => setTimeout(() => resolve(''), 10_000).unref());
  }
}

/** Resolves prefetch to a list instead of text. */
class ListProvider extends InMemoryMemoryProvider {
  override prefetch(): Promise<string> {
    return Promise.resolve(['fact'] as unknown as string);
  }
}

/** Reports a relative backup path. */
class SloppyProvider extends InMemoryMemoryProvider {
  override backupPaths(): readonly string[] {
    return ['memories/db.sqlite'];
  }
}

class GreedyProvider extends InMemoryMemoryProvider {
  override handleToolCall(): Promise<string | undefined> {
    return Promise.resolve('ok');
  }
}

function ctx(provider: MemoryProvider): MemoryProviderCheckContext {
  return {
    provider,
    init: { hermesHome: '/tmp/hermes-x', sessionId: 's', platform: 'cli' },
    abortDeadlineMs: 50,
  };
}

describe('the memory checks fail on broken providers', () => {
  it('checkPrefetchAbort fails when prefetch ignores the signal', async () => {
    await expect(checkPrefetchAbort(ctx(new DeafProvider()))).rejects.toThrow(
      violation(/did not settle/),
    );
  });

  it('checkLifecycle fails when prefetch does not resolve to text', async () => {
    await expect(checkLifecycle(ctx(new ListProvider()))).rejects.toThrow(violation(/string/));
  });

  it('checkOptionalMembers fails on a relative backup path', async () => {
    await expect(checkOptionalMembers(ctx(new SloppyProvider()))).rejects.toThrow(
      violation(/absolute/),
    );
  });

  it('checkOptionalMembers fails when an unknown tool is claimed', async () => {
    await expect(checkOptionalMembers(ctx(new GreedyProvider()))).rejects.toThrow(
      violation(/undefined/),
    );
  });

  it('checkName fails on a name with spaces', async () => {
    const provider = new InMemoryMemoryProvider();
    Object.defineProperty(provider, 'name', { value: 'my memory' });
    await expect(checkName(ctx(provider))).rejects.toThrow(violation(/name/));
  });
});
