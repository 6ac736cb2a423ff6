/**
 * Reusable checks of session-store behaviour. They throw a `ContractViolation` naming the first
 * problem, so they work inside and outside a test runner.
 */
import { isDeepStrictEqual } from 'node:util';
import { type ChatMessage, hasErrorCode } from '@hermes/protocol';
import { contractViolation } from '@hermes/protocol/testing';
import type { z } from 'zod';
import type { StoredMessage } from '../stored-message.js';

/** Parses `value` with `schema` or throws a contract violation naming `what`. */
export function expectShape<S extends z.ZodType>(
  schema: S,
  value: unknown,
  what: string,
): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) contractViolation(`${what} has the wrong shape: ${parsed.error.message}`);
  return parsed.data;
}

/** Asserts every id is a positive integer greater than the one before it. */
export function assertIdsIncreasing(ids: readonly number[], what = 'ids'): void {
  ids.forEach((id, i) => {
    if (!Number.isInteger(id) || id <= 0)
      contractViolation(`${what}[${i}] = ${id} is not a positive integer`);
    const previous = ids[i - 1];
    if (previous !== undefined && id <= previous) {
      contractViolation(`${what} must strictly increase, but ${id} follows ${previous}`);
    }
  });
}

/** Asserts the rows hold exactly `expected`, in order, compared by value. */
export function assertSameMessages(
  rows: readonly StoredMessage[],
  expected: readonly ChatMessage[],
): void {
  if (rows.length !== expected.length) {
    contractViolation(`expected ${expected.length} messages, read back ${rows.length}`);
  }
  rows.forEach((row, i) => {
    if (!isDeepStrictEqual(row.message, expected[i]))
      contractViolation(`message ${i} did not round-trip`);
  });
}

/**
 * Asserts a compaction archived instead of deleting: every row of `before` is still present in
 * `after` with the same id and message, and every row that was active is now inactive and
 * compacted.
 */
export function assertArchivedNotDeleted(
  before: readonly StoredMessage[],
  after: readonly StoredMessage[],
): void {
  const byId = new Map(after.map((row) => [row.id, row]));
  for (const old of before) {
    const now = byId.get(old.id);
    if (!now) contractViolation(`row ${old.id} was deleted; compaction must archive, never delete`);
    if (!isDeepStrictEqual(now.message, old.message))
      contractViolation(`row ${old.id} changed its message`);
    if (old.active && (now.active || !now.compacted)) {
      contractViolation(`row ${old.id} should be archived (active=false, compacted=true)`);
    }
  }
}

/** Asserts `promise` rejects with a HermesError carrying `code`. */
export async function assertRejectsWithCode(
  promise: Promise<unknown>,
  code: string,
  what: string,
): Promise<void> {
  try {
    await promise;
  } catch (error) {
    if (hasErrorCode(error, code)) return;
    contractViolation(`${what} rejected, but not with code ${code}: ${String(error)}`);
  }
  contractViolation(`${what} resolved; expected a rejection with code ${code}`);
}

/** Asserts a value is `undefined`. */
export function assertUndefined(value: unknown, what: string): void {
  if (value !== undefined)
    contractViolation(`${what} should be undefined, got ${JSON.stringify(value)}`);
}
