/** Contract checks of appending and reading messages. */
import { isDeepStrictEqual } from 'node:util';
import type { ChatMessage } from '@hermes/protocol';
import { contractViolation } from '@hermes/protocol/testing';
import { SESSION_NOT_FOUND_CODE } from '../errors.js';
import { StoredMessageSchema } from '../stored-message.js';
import {
  assertIdsIncreasing,
  assertRejectsWithCode,
  assertSameMessages,
  expectShape,
} from './assertions.js';
import { sampleConversation } from './fixtures.js';
import type { SessionStoreCheckContext } from './session-checks.js';

/** Appended messages come back in order, as written, active, with increasing ids. */
export async function checkAppendAndRead({ store }: SessionStoreCheckContext): Promise<void> {
  const session = await store.createSession({ source: 'cli' });
  const messages = sampleConversation();
  const ids = await store.appendMessages(session.id, messages);
  if (ids.length !== messages.length)
    contractViolation('appendMessages must return one id per message');
  assertIdsIncreasing(ids);
  const rows = await store.getMessages(session.id);
  for (const row of rows) expectShape(StoredMessageSchema, row, 'stored message');
  assertSameMessages(rows, messages);
  if (
    !isDeepStrictEqual(
      rows.map((r) => r.id),
      ids,
    )
  )
    contractViolation('rows must carry the returned ids');
  if (rows.some((r) => !r.active || r.compacted || r.sessionId !== session.id)) {
    contractViolation('appended rows must be active, not compacted, and in their session');
  }
}

/** Appending already-written message objects writes nothing and returns their ids. */
export async function checkIdempotentAppend({ store }: SessionStoreCheckContext): Promise<void> {
  const session = await store.createSession({ source: 'cli' });
  const [a, b, c] = sampleConversation() as [ChatMessage, ChatMessage, ChatMessage];
  const first = await store.appendMessages(session.id, [a, b]);
  const second = await store.appendMessages(session.id, [a, b, c]);
  const third = await store.appendMessages(session.id, [a, { message: b, tokenCount: 9 }, c]);
  if (!isDeepStrictEqual(second.slice(0, 2), first))
    contractViolation('a re-appended message must keep its id');
  if (!isDeepStrictEqual(third, second))
    contractViolation('a second flush of the same list must return the same ids');
  assertSameMessages(await store.getMessages(session.id), [a, b, c]);
  const copy = structuredClone(c);
  await store.appendMessages(session.id, [copy]);
  if ((await store.getMessages(session.id)).length !== 4) {
    contractViolation('an equal but distinct message object is a new message and must be written');
  }
  const counters = (await store.getSession(session.id))?.counters;
  if (counters?.messages !== 4)
    contractViolation(`counters.messages should be 4, is ${counters?.messages}`);
}

/** Tool calls, reasoning, images and sidecar facts survive a round trip; counters follow. */
export async function checkRoundTrip({ store }: SessionStoreCheckContext): Promise<void> {
  const session = await store.createSession({ source: 'cli' });
  const messages = sampleConversation();
  const assistant = messages[5] as ChatMessage;
  const withFacts = {
    message: assistant,
    apiContent: 'The folder holds notes.md and src.\n<memory-context>x</memory-context>',
    finishReason: 'stop' as const,
    tokenCount: 17,
    platformMessageId: 'tg-1001',
  };
  await store.appendMessages(session.id, [
    ...messages.slice(0, 5),
    withFacts,
    ...messages.slice(6),
  ]);
  const rows = await store.getMessages(session.id);
  assertSameMessages(rows, messages);
  const row = rows[5];
  if (
    !isDeepStrictEqual(
      [row?.apiContent, row?.finishReason, row?.tokenCount, row?.platformMessageId],
      [withFacts.apiContent, 'stop', 17, 'tg-1001'],
    )
  )
    contractViolation('sidecar facts must round-trip');
  if (!isDeepStrictEqual([rows[0]?.apiContent, rows[0]?.tokenCount], [null, null]))
    contractViolation('absent facts read back as null');
  const counters = (await store.getSession(session.id))?.counters;
  if (counters?.toolCalls !== 2)
    contractViolation(`counters.toolCalls should be 2, is ${counters?.toolCalls}`);
}

/** Writes to an unknown session reject with `state.session_not_found`. */
export async function checkWritesToUnknownSession({
  store,
}: SessionStoreCheckContext): Promise<void> {
  const message: ChatMessage = { role: 'user', content: 'hello?' };
  await assertRejectsWithCode(
    store.appendMessages('no-such-session', [message]),
    SESSION_NOT_FOUND_CODE,
    'appendMessages to an unknown session',
  );
  await assertRejectsWithCode(
    store.archiveAndCompact('no-such-session', { replacement: [message] }),
    SESSION_NOT_FOUND_CODE,
    'archiveAndCompact of an unknown session',
  );
}
