/** Contract checks of archiveAndCompact and search. */
import { isDeepStrictEqual } from 'node:util';
import type { ChatMessage } from '@hermes/protocol';
import { contractViolation } from '@hermes/protocol/testing';
import { CompactionResultSchema } from '../compaction.js';
import { SearchHitSchema } from '../search.js';
import {
  assertArchivedNotDeleted,
  assertIdsIncreasing,
  assertSameMessages,
  expectShape,
} from './assertions.js';
import { HOSTILE_QUERIES, sampleConversation } from './fixtures.js';
import type { SessionStoreCheckContext } from './session-checks.js';

function summary(): ChatMessage {
  return { role: 'user', content: '[Compaction summary] Listed the folder and read the notes.' };
}

/** In-place compaction archives every old row, keeps it, and makes the replacement active. */
export async function checkCompactInPlace({ store }: SessionStoreCheckContext): Promise<void> {
  const session = await store.createSession({ source: 'cli' });
  const messages = sampleConversation();
  await store.appendMessages(session.id, messages);
  const before = await store.getMessages(session.id, { includeInactive: true });
  const replacement = [messages[0], summary(), messages[5], messages[6]] as ChatMessage[];
  const result = expectShape(
    CompactionResultSchema,
    await store.archiveAndCompact(session.id, { replacement }),
    'compaction result',
  );
  if (result.sessionId !== session.id)
    contractViolation('in-place compaction must keep the session');
  if (result.archivedCount !== messages.length)
    contractViolation(`archivedCount should be ${messages.length}`);
  assertIdsIncreasing(
    [...before.map((r) => r.id), ...result.messageIds],
    'old ids then replacement ids',
  );
  const all = await store.getMessages(session.id, { includeInactive: true });
  assertArchivedNotDeleted(before, all);
  if (all.length !== messages.length + replacement.length)
    contractViolation('rows were lost or duplicated');
  const active = await store.getMessages(session.id);
  assertSameMessages(active, replacement);
  if (
    !isDeepStrictEqual(
      active.map((r) => r.id),
      result.messageIds,
    )
  )
    contractViolation('active rows carry the replacement ids');
  const again = await store.appendMessages(session.id, replacement);
  if (!isDeepStrictEqual(again, result.messageIds))
    contractViolation('replacement objects count as written');
  if ((await store.getMessages(session.id)).length !== replacement.length) {
    contractViolation('re-appending the replacement wrote rows');
  }
}

/** Child-session compaction ends the session and continues in a child in the lineage. */
export async function checkCompactIntoChild({ store }: SessionStoreCheckContext): Promise<void> {
  const parent = await store.createSession({ source: 'telegram', model: 'm1' });
  const messages = sampleConversation();
  await store.appendMessages(parent.id, messages);
  const before = await store.getMessages(parent.id, { includeInactive: true });
  const replacement = [messages[0], summary(), messages[6]] as ChatMessage[];
  const result = await store.archiveAndCompact(parent.id, { replacement, mode: 'child_session' });
  if (result.sessionId === parent.id)
    contractViolation('child_session mode must create a new session');
  const child = await store.getSession(result.sessionId);
  if (child?.parentSessionId !== parent.id || child.source !== 'telegram') {
    contractViolation('the child must point to its parent and keep its source');
  }
  const ended = await store.getSession(parent.id);
  if (ended?.endReason !== 'compression' || ended.endedAt === null) {
    contractViolation('the parent must be ended with reason "compression"');
  }
  assertSameMessages(await store.getMessages(child.id), replacement);
  assertArchivedNotDeleted(before, await store.getMessages(parent.id, { includeInactive: true }));
}

/** Search finds an appended word, keeps finding it once archived, and honours the limit. */
export async function checkSearch({ store }: SessionStoreCheckContext): Promise<void> {
  const session = await store.createSession({ source: 'cli' });
  const other = await store.createSession({ source: 'cli' });
  const [hitId] = await store.appendMessages(session.id, [
    { role: 'user', content: 'Our zebrafish migrates at dawn.' },
  ]);
  await store.appendMessages(other.id, [
    { role: 'assistant', content: 'Zebrafish tanks need filters.' },
  ]);
  const hits = await store.search('zebrafish');
  for (const hit of hits) expectShape(SearchHitSchema, hit, 'search hit');
  const found = hits.find((h) => h.messageId === hitId);
  if (!found || found.sessionId !== session.id || found.role !== 'user') {
    contractViolation('search did not find the appended word in its session');
  }
  if ((await store.search('zebrafish', { limit: 1 })).length !== 1)
    contractViolation('limit 1 must give 1 hit');
  const scoped = await store.search('zebrafish', { sessionId: other.id });
  if (scoped.some((h) => h.sessionId !== other.id))
    contractViolation('sessionId must scope the search');
  await store.archiveAndCompact(session.id, {
    replacement: [{ role: 'user', content: 'summary' }],
  });
  const archived = (await store.search('zebrafish')).find((h) => h.messageId === hitId);
  if (!archived || archived.active)
    contractViolation('archived rows must stay searchable, marked inactive');
  if ((await store.search('zebrafish', { activeOnly: true })).some((h) => h.messageId === hitId)) {
    contractViolation('activeOnly must skip archived rows');
  }
  if ((await store.search('wordthatappearsnowhere')).length !== 0)
    contractViolation('a missing word must find nothing');
}

/** No user input makes search throw. */
export async function checkHostileQueries({ store }: SessionStoreCheckContext): Promise<void> {
  const session = await store.createSession({ source: 'cli' });
  await store.appendMessages(session.id, [
    { role: 'user', content: 'TODO: fix chat-send in P2.2 (C++)' },
  ]);
  for (const query of HOSTILE_QUERIES) {
    let hits: unknown;
    try {
      hits = await store.search(query);
    } catch (error) {
      contractViolation(`search(${JSON.stringify(query)}) threw: ${String(error)}`);
    }
    if (!Array.isArray(hits))
      contractViolation(`search(${JSON.stringify(query)}) did not resolve to a list`);
  }
}
