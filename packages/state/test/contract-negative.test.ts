/** Proves the contract can fail: each check and assertion rejects a deliberately broken input. */
import type { ChatMessage } from '@hermes/protocol';
import * as shared from '@hermes/protocol/testing';
import { describe, expect, it } from 'vitest';
import type {
  AppendableMessage,
  CompactionRequest,
  CompactionResult,
  SearchHit,
  StoredMessage,
} from '../src/index.js';
import {
  assertArchivedNotDeleted,
  assertIdsIncreasing,
  assertRejectsWithCode,
  assertSameMessages,
  checkCompactInPlace,
  checkHostileQueries,
  checkIdempotentAppend,
  checkUnknownSession,
  contractViolation,
} from '../src/testing.js';
import { InMemorySessionStore } from './support/in-memory-session-store.js';

/** Matches a `ContractViolation` (the one way a check fails) whose message matches `pattern`. */
const violation = (pattern: RegExp) =>
  expect.objectContaining({ name: 'ContractViolation', message: expect.stringMatching(pattern) });

function row(id: number, active: boolean, compacted = !active): StoredMessage {
  return {
    id,
    sessionId: 's',
    message: { role: 'user', content: `m${id}` },
    apiContent: null,
    finishReason: null,
    tokenCount: null,
    platformMessageId: null,
    createdAt: 0,
    active,
    compacted,
  };
}

describe('the shared primitives', () => {
  it('are re-exported from @hermes/protocol/testing, so every check fails the same way', () => {
    expect(contractViolation).toBe(shared.contractViolation);
  });
});

describe('the store assertions reject bad input', () => {
  it('assertIdsIncreasing rejects decreasing, repeated and non-positive ids', () => {
    expect(() => assertIdsIncreasing([1, 2, 5])).not.toThrow();
    expect(() => assertIdsIncreasing([3, 2])).toThrow(violation(/increase/));
    expect(() => assertIdsIncreasing([2, 2])).toThrow(violation(/increase/));
    expect(() => assertIdsIncreasing([0])).toThrow(violation(/positive/));
  });

  it('assertArchivedNotDeleted rejects a deleted row and a row left active', () => {
    const before = [row(1, true), row(2, true)];
    expect(() => assertArchivedNotDeleted(before, [row(1, false), row(2, false)])).not.toThrow();
    expect(() => assertArchivedNotDeleted(before, [row(1, false)])).toThrow(violation(/deleted/));
    expect(() => assertArchivedNotDeleted(before, [row(1, false), row(2, true)])).toThrow(
      violation(/archived/),
    );
    expect(() => assertArchivedNotDeleted(before, [row(1, false), row(2, false, false)])).toThrow(
      violation(/archived/),
    );
  });

  it('assertSameMessages rejects a different count or content', () => {
    const messages: ChatMessage[] = [{ role: 'user', content: 'm1' }];
    expect(() => assertSameMessages([row(1, true)], messages)).not.toThrow();
    expect(() => assertSameMessages([], messages)).toThrow(violation(/expected 1/));
    expect(() => assertSameMessages([row(2, true)], messages)).toThrow(violation(/round-trip/));
  });

  it('assertRejectsWithCode rejects a resolution and a wrong code', async () => {
    await expect(assertRejectsWithCode(Promise.resolve(1), 'state.x', 'op')).rejects.toThrow(
      violation(/resolved/),
    );
    await expect(
      assertRejectsWithCode(Promise.reject(new Error('boom')), 'state.x', 'op'),
    ).rejects.toThrow(violation(/not with code/));
  });
});

/** Re-writes every message on every append: not idempotent. */
class ForgetfulStore extends InMemorySessionStore {
  override appendMessages(
    sessionId: string,
    messages: readonly AppendableMessage[],
  ): Promise<number[]> {
    return super.appendMessages(
      sessionId,
      messages.map((m) => structuredClone(m)),
    );
  }
}

/** Compacts by deleting: the old rows vanish. */
class DeletingStore extends InMemorySessionStore {
  override async archiveAndCompact(
    sessionId: string,
    request: CompactionRequest,
  ): Promise<CompactionResult> {
    const result = await super.archiveAndCompact(sessionId, request);
    const kept = this.rows.filter((r) => r.active);
    this.rows.splice(0, this.rows.length, ...kept);
    return result;
  }
}

/** Passes user input straight to a query parser that chokes on punctuation. */
class FragileSearchStore extends InMemorySessionStore {
  override search(query: string): Promise<SearchHit[]> {
    if (/[()"*{}]/.test(query))
      return Promise.reject(new Error(`fts5: syntax error near "${query}"`));
    return super.search(query);
  }
}

/** Throws instead of answering "no such session". */
class ThrowingLookupStore extends InMemorySessionStore {
  override async getSession(id: string) {
    const found = await super.getSession(id);
    if (!found) throw new Error('not found');
    return found;
  }
}

describe('the store checks fail on broken stores', () => {
  it('checkIdempotentAppend fails when re-appending writes duplicates', async () => {
    await expect(checkIdempotentAppend({ store: new ForgetfulStore() })).rejects.toThrow(
      violation(/id/),
    );
  });

  it('checkCompactInPlace fails when compaction deletes rows', async () => {
    await expect(checkCompactInPlace({ store: new DeletingStore() })).rejects.toThrow(
      violation(/deleted/),
    );
  });

  it('checkHostileQueries fails when punctuation breaks search', async () => {
    await expect(checkHostileQueries({ store: new FragileSearchStore() })).rejects.toThrow(
      violation(/threw/),
    );
  });

  it('checkUnknownSession fails when a lookup throws', async () => {
    await expect(checkUnknownSession({ store: new ThrowingLookupStore() })).rejects.toThrow(
      /not found/,
    );
  });
});
