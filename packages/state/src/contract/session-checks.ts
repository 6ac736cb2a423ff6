/** Contract checks of session records: create, read, end, and the optional members. */
import { isDeepStrictEqual } from 'node:util';
import { contractViolation } from '@hermes/protocol/testing';
import { SESSION_EXISTS_CODE } from '../errors.js';
import { SessionExportSchema } from '../session-export.js';
import { emptyCounters, SessionRecordSchema } from '../session-record.js';
import type { SessionStore } from '../session-store.js';
import { assertRejectsWithCode, assertUndefined, expectShape } from './assertions.js';
import { fullSessionInit, sampleConversation } from './fixtures.js';

/** What every session-store check receives. */
export interface SessionStoreCheckContext {
  readonly store: SessionStore;
}

/** A created session echoes its init, starts open with zero counters, and reads back equal. */
export async function checkCreateAndGet({ store }: SessionStoreCheckContext): Promise<void> {
  const init = fullSessionInit('contract-session-1');
  const created = expectShape(
    SessionRecordSchema,
    await store.createSession(init),
    'created session',
  );
  const { id, startedAt, ...rest } = init;
  if (!isDeepStrictEqual({ id: created.id, startedAt: created.startedAt }, { id, startedAt }))
    contractViolation('id and startedAt must be kept');
  for (const [key, value] of Object.entries(rest)) {
    if (!isDeepStrictEqual(created[key as keyof typeof created], value))
      contractViolation(`field ${key} must be kept`);
  }
  const fresh = { endedAt: null, endReason: null, archived: false, parentSessionId: null };
  for (const [key, value] of Object.entries(fresh)) {
    if (!isDeepStrictEqual(created[key as keyof typeof created], value))
      contractViolation(`a new session has ${key} = ${value}`);
  }
  if (!isDeepStrictEqual(created.counters, emptyCounters()))
    contractViolation('a new session has zero counters');
  if (!isDeepStrictEqual(await store.getSession(created.id), created))
    contractViolation('getSession must return the record');
}

/** Without an id the store generates distinct ones; a taken id is refused. */
export async function checkSessionIds({ store }: SessionStoreCheckContext): Promise<void> {
  const a = await store.createSession({ source: 'cli' });
  const b = await store.createSession({ source: 'cli' });
  if (!a.id || !b.id || a.id === b.id) contractViolation('generated session ids must be distinct');
  if (a.userId !== null || a.title !== null)
    contractViolation('unset fields must read back as null');
  await assertRejectsWithCode(
    store.createSession({ id: a.id, source: 'cli' }),
    SESSION_EXISTS_CODE,
    'createSession with a taken id',
  );
}

/** Lookups of an unknown session resolve to nothing instead of throwing. */
export async function checkUnknownSession({ store }: SessionStoreCheckContext): Promise<void> {
  assertUndefined(await store.getSession('no-such-session'), 'getSession of an unknown id');
  if (!isDeepStrictEqual(await store.getMessages('no-such-session'), []))
    contractViolation('getMessages of an unknown id');
  assertUndefined(await store.endSession('no-such-session', 'test'), 'endSession of an unknown id');
  assertUndefined(await store.export('no-such-session'), 'export of an unknown id');
}

/** Ending sets the end time and reason once; a second end changes nothing. */
export async function checkEndSession({ store }: SessionStoreCheckContext): Promise<void> {
  const session = await store.createSession({ source: 'cli', startedAt: Date.now() - 1000 });
  const ended = await store.endSession(session.id, 'user_exit');
  if (ended?.endReason !== 'user_exit' || ended.endedAt === null) {
    contractViolation('endSession must set endedAt and endReason');
  }
  if (ended.endedAt < session.startedAt) contractViolation('endedAt precedes startedAt');
  const again = await store.endSession(session.id, 'expired');
  if (
    !isDeepStrictEqual(
      { endedAt: again?.endedAt, endReason: again?.endReason },
      { endedAt: ended.endedAt, endReason: 'user_exit' },
    )
  )
    contractViolation('a second endSession must keep the first end');
}

/** The optional members answer in valid shapes (their defaults included). */
export async function checkOptionalMembers({ store }: SessionStoreCheckContext): Promise<void> {
  const session = await store.createSession({ source: 'cli' });
  const messages = sampleConversation();
  await store.appendMessages(session.id, messages);
  const exported = expectShape(SessionExportSchema, await store.export(session.id), 'export');
  if (exported.session.id !== session.id || exported.messages.length !== messages.length) {
    contractViolation('export must hold the session and all its messages');
  }
  for (const listed of await store.listSessions())
    expectShape(SessionRecordSchema, listed, 'listed session');
  const pruned = await store.prune(0);
  if (!Number.isInteger(pruned) || pruned !== 0) contractViolation('prune(0) must delete nothing');
  if (!(await store.getSession(session.id))) contractViolation('prune(0) deleted a session');
  const updated = await store.updateSession(session.id, { title: 'Renamed' });
  expectShape(SessionRecordSchema, updated, 'updateSession result');
  const counted = await store.incrementCounters(session.id, { apiCalls: 1 });
  expectShape(SessionRecordSchema, counted, 'incrementCounters result');
  assertUndefined(
    await store.getSystemPrompt('sha256:never-stored'),
    'getSystemPrompt of an unknown hash',
  );
  await store.saveSystemPrompt('sha256:contract', 'You are helpful.');
  const prompt = await store.getSystemPrompt('sha256:contract');
  if (prompt !== undefined && prompt !== 'You are helpful.')
    contractViolation('getSystemPrompt returned other text');
  if (typeof (await store.deleteSession('no-such-session')) !== 'boolean') {
    contractViolation('deleteSession must resolve to a boolean');
  }
}

/** `close` resolves, twice. */
export async function checkClose({ store }: SessionStoreCheckContext): Promise<void> {
  await store.close();
  await store.close();
}
