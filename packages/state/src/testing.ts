/**
 * @packageDocumentation
 * The SessionStore contract suite (`@hermes/state/testing`). Any implementation runs it from its
 * own vitest file:
 *
 * ```ts
 * import { describeSessionStoreContract } from '@hermes/state/testing';
 * describeSessionStoreContract('sqlite', () => openSqliteStore(tempFile()));
 * ```
 */
import { describe, it } from 'vitest';
import * as compaction from './contract/compaction-checks.js';
import * as messages from './contract/message-checks.js';
import type { SessionStoreCheckContext } from './contract/session-checks.js';
import * as sessions from './contract/session-checks.js';
import type { SessionStore } from './session-store.js';

export { contractViolation } from '@hermes/protocol/testing';
export * from './contract/assertions.js';
export * from './contract/compaction-checks.js';
export * from './contract/fixtures.js';
export * from './contract/message-checks.js';
export * from './contract/session-checks.js';

/** Every check, by the name the suite gives its test. */
export const sessionStoreChecks = {
  'creates a session and reads it back': sessions.checkCreateAndGet,
  'generates distinct ids and refuses a taken one': sessions.checkSessionIds,
  'answers lookups of an unknown session with nothing': sessions.checkUnknownSession,
  'ends a session once': sessions.checkEndSession,
  'appends messages and reads them back in order': messages.checkAppendAndRead,
  'appends each message object once': messages.checkIdempotentAppend,
  'round-trips tool calls, reasoning, images and sidecar facts': messages.checkRoundTrip,
  'rejects writes to an unknown session': messages.checkWritesToUnknownSession,
  'compacts in place, archiving instead of deleting': compaction.checkCompactInPlace,
  'compacts into a child session in the lineage': compaction.checkCompactIntoChild,
  'finds appended words, archived ones included': compaction.checkSearch,
  'survives hostile search queries': compaction.checkHostileQueries,
  'answers the optional members in valid shapes': sessions.checkOptionalMembers,
  'closes idempotently': sessions.checkClose,
} as const satisfies Record<string, (ctx: SessionStoreCheckContext) => Promise<void>>;

/** Creates a fresh, empty store for one test. */
export type SessionStoreFactory = () => SessionStore | Promise<SessionStore>;

/** Tuning of {@link describeSessionStoreContract}. */
export interface SessionStoreContractOptions {
  /** Runs after each test (after `close`), for example to delete a temporary database file. */
  readonly cleanup?: (store: SessionStore) => void | Promise<void>;
}

/**
 * Registers one vitest test per entry of {@link sessionStoreChecks}, each against a fresh store
 * from `factory`, closed (and cleaned up) afterwards.
 */
export function describeSessionStoreContract(
  label: string,
  factory: SessionStoreFactory,
  options: SessionStoreContractOptions = {},
): void {
  describe(`SessionStore contract: ${label}`, () => {
    for (const [title, check] of Object.entries(sessionStoreChecks)) {
      it(title, async () => {
        const store = await factory();
        try {
          await check({ store });
        } finally {
          await store.close();
          await options.cleanup?.(store);
        }
      });
    }
  });
}
