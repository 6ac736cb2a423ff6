import { describe, expect, it } from 'vitest';
import { SessionExportSchema } from '../src/index.js';
import { describeSessionStoreContract } from '../src/testing.js';
import { RequiredOnlyStore } from './support/required-only-store.js';

describe('SessionStore optional members', () => {
  it('have safe defaults for a store that implements only the required members', async () => {
    const store = new RequiredOnlyStore();
    const session = await store.createSession({ source: 'cli' });
    await store.appendMessages(session.id, [{ role: 'user', content: 'hi' }]);

    const current = await store.getSession(session.id);
    await expect(store.updateSession(session.id, { title: 'x' })).resolves.toEqual(current);
    expect((await store.updateSession(session.id, { title: 'x' }))?.title).toBeNull();
    expect((await store.incrementCounters(session.id, { apiCalls: 3 }))?.counters.apiCalls).toBe(0);
    await expect(store.updateSession('missing', {})).resolves.toBeUndefined();
    await expect(store.listSessions()).resolves.toEqual([]);
    await expect(store.prune(Date.now() + 1e9)).resolves.toBe(0);
    await expect(store.deleteSession(session.id)).resolves.toBe(false);
    await expect(store.saveSystemPrompt('h', 'text')).resolves.toBeUndefined();
    await expect(store.getSystemPrompt('h')).resolves.toBeUndefined();
    await expect(store.close()).resolves.toBeUndefined();
  });

  it('export defaults to the session plus every row, archived ones included', async () => {
    const store = new RequiredOnlyStore();
    const session = await store.createSession({ source: 'cli' });
    await store.appendMessages(session.id, [{ role: 'user', content: 'one' }]);
    await store.archiveAndCompact(session.id, { replacement: [{ role: 'user', content: 'two' }] });
    const exported = SessionExportSchema.parse(await store.export(session.id));
    expect(exported.session.id).toBe(session.id);
    expect(exported.messages.map((m) => [m.message.content, m.active])).toEqual([
      ['one', false],
      ['two', true],
    ]);
    await expect(store.export('missing')).resolves.toBeUndefined();
  });
});

describeSessionStoreContract(
  'a store with only the required members',
  () => new RequiredOnlyStore(),
);
