// The example from README.md, kept here so it is proven to compile and pass.
import type { ChatMessage } from '@hermes/protocol';
import type { SessionStore } from '@hermes/state';
import { describeSessionStoreContract } from '@hermes/state/testing';
import { expect, it } from 'vitest';
import { InMemorySessionStore } from './support/in-memory-session-store.js';

// 1. Run the contract suite against your implementation.
describeSessionStoreContract('in-memory', () => new InMemorySessionStore());

// 2. Use any store through the seam.
async function demo(store: SessionStore) {
  const session = await store.createSession({ source: 'cli', model: 'gpt-4.1' });
  const history: ChatMessage[] = [
    { role: 'system', content: 'You are helpful.' },
    { role: 'user', content: 'Where did we put the zebrafish notes?' },
  ];
  await store.appendMessages(session.id, history);
  await store.appendMessages(session.id, history); // a second flush writes nothing
  await store.archiveAndCompact(session.id, {
    replacement: [
      history[0] as ChatMessage,
      { role: 'user', content: '[summary] asked about notes' },
    ],
  });
  const active = await store.getMessages(session.id);
  const everything = await store.getMessages(session.id, { includeInactive: true });
  const hits = await store.search('zebrafish'); // archived rows stay searchable
  return { active: active.length, everything: everything.length, hits: hits.length };
}

it('runs the README demo', async () => {
  await expect(demo(new InMemorySessionStore())).resolves.toEqual({
    active: 2,
    everything: 4,
    hits: 1,
  });
});
