import { join } from 'node:path';
import type { ChatMessage } from '@hermes/protocol';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { LATEST_SCHEMA_VERSION, openSessionStore, SqliteSessionStore } from '../src/index.js';
import { sampleConversation } from '../src/testing.js';

function dbPath(name = 'state.db'): string {
  return join(process.env.HERMES_HOME ?? '', name);
}

describe('SqliteSessionStore persistence', () => {
  it('opens HERMES_HOME/state.db by default and finds everything after reopening', async () => {
    const store = openSessionStore();
    expect(store.path).toBe(dbPath());
    const session = await store.createSession({ source: 'cli', title: 'kept' });
    const messages = sampleConversation();
    await store.appendMessages(session.id, [
      { message: messages[0] as ChatMessage, apiContent: 'exact bytes', tokenCount: 7 },
      {
        message: messages[2] as ChatMessage,
        finishReason: 'tool_calls',
        platformMessageId: 'tg-9',
        apiContent: [{ type: 'text', text: 'parts' }],
        createdAt: 123,
      },
    ]);
    await store.saveSystemPrompt('h1', 'You are Hermes.');
    await store.setState('credential_pool', 'openai', { index: 2, cooling: ['k1'] });
    await store.close();

    const reopened = openSessionStore();
    expect((await reopened.getSession(session.id))?.title).toBe('kept');
    const rows = await reopened.getMessages(session.id);
    expect(rows.map((r) => r.message)).toEqual([messages[0], messages[2]]);
    expect(rows[0]).toMatchObject({ apiContent: 'exact bytes', tokenCount: 7, finishReason: null });
    expect(rows[1]).toMatchObject({
      finishReason: 'tool_calls',
      platformMessageId: 'tg-9',
      apiContent: [{ type: 'text', text: 'parts' }],
      createdAt: 123,
    });
    expect(await reopened.getSystemPrompt('h1')).toBe('You are Hermes.');
    expect(await reopened.getState('credential_pool', 'openai')).toEqual({
      index: 2,
      cooling: ['k1'],
    });
    await reopened.setState('credential_pool', 'openai', undefined);
    expect(await reopened.getState('credential_pool', 'openai')).toBeUndefined();
    await reopened.close();
  });

  it('applies migrations once and records the version in user_version', async () => {
    const first = openSessionStore();
    const session = await first.createSession({ source: 'cli' });
    await first.close();
    const second = openSessionStore();
    expect(await second.getSession(session.id)).toBeDefined();
    await second.close();
    const raw = new Database(dbPath(), { readonly: true });
    expect(raw.pragma('user_version', { simple: true })).toBe(LATEST_SCHEMA_VERSION);
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    const tables = raw
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'messages_fts'")
      .all();
    expect(tables).toHaveLength(1);
    raw.close();
  });

  it('gives every in-memory store its own copy of the migrated schema', async () => {
    const first = openSessionStore({ path: ':memory:' });
    const second = openSessionStore({ path: ':memory:' });
    const session = await first.createSession({ source: 'cli', title: 'only in the first' });
    await first.appendMessages(session.id, [
      { message: { role: 'user', content: 'a lighthouse keeper' } },
    ]);
    expect(await second.getSession(session.id)).toBeUndefined();
    expect(await second.listSessions()).toEqual([]);
    // Search needs the FTS tables the migrations create: present in each copy.
    const hits = await first.search('lighthouse');
    expect(hits.map((hit) => hit.sessionId)).toEqual([session.id]);
    expect(await second.search('lighthouse')).toEqual([]);
    await first.close();
    // A store opened after another closed starts empty too.
    const third = openSessionStore({ path: ':memory:' });
    expect(await third.listSessions()).toEqual([]);
    await Promise.all([second.close(), third.close()]);
  });

  it('writes each message once across repeated flushes and counts it once', async () => {
    const store = openSessionStore();
    const session = await store.createSession({ source: 'cli' });
    const messages = sampleConversation();
    const firstIds = await store.appendMessages(session.id, messages.slice(0, 3));
    const allIds = await store.appendMessages(session.id, messages);
    const again = await store.appendMessages(session.id, [...messages, ...messages]);
    expect(allIds.slice(0, 3)).toEqual(firstIds);
    expect(again).toEqual([...allIds, ...allIds]);
    expect(await store.getMessages(session.id)).toHaveLength(messages.length);
    const record = await store.getSession(session.id);
    expect(record?.counters.messages).toBe(messages.length);
    expect(record?.counters.toolCalls).toBe(2);
    await store.close();
  });

  it('adds token, API-call, cost and compression deltas', async () => {
    const store = openSessionStore();
    const session = await store.createSession({ source: 'cli' });
    await store.incrementCounters(session.id, {
      inputTokens: 10,
      apiCalls: 1,
      estimatedCostUsd: 0.5,
    });
    const after = await store.incrementCounters(session.id, {
      inputTokens: 5,
      outputTokens: 3,
      cacheReadTokens: 2,
      cacheWriteTokens: 1,
      reasoningTokens: 4,
      apiCalls: 1,
      estimatedCostUsd: 0.25,
      compressions: 1,
    });
    expect(after?.counters).toMatchObject({
      inputTokens: 15,
      outputTokens: 3,
      cacheReadTokens: 2,
      cacheWriteTokens: 1,
      reasoningTokens: 4,
      apiCalls: 2,
      estimatedCostUsd: 0.75,
      compressions: 1,
    });
    const patched = await store.updateSession(session.id, {
      title: 'renamed',
      compressionFailureStreak: 2,
      compressionCooldownUntil: 99,
      archived: true,
    });
    expect(patched).toMatchObject({
      title: 'renamed',
      compressionFailureStreak: 2,
      compressionCooldownUntil: 99,
      archived: true,
    });
    expect(await store.listSessions()).toHaveLength(0);
    expect(await store.listSessions({ includeArchived: true })).toHaveLength(1);
    await store.close();
  });
});

describe('SqliteSessionStore compaction', () => {
  it('changes nothing when a replacement row fails mid-transaction', async () => {
    const store = openSessionStore();
    const session = await store.createSession({ source: 'cli' });
    const messages = sampleConversation();
    await store.appendMessages(session.id, messages);
    const before = await store.getMessages(session.id, { includeInactive: true });
    const summary: ChatMessage = { role: 'user', content: 'summary' };
    const invalid = {
      role: 'narrator',
      content: 'breaks the role check',
    } as unknown as ChatMessage;
    await expect(
      store.archiveAndCompact(session.id, {
        replacement: [summary, invalid],
        mode: 'child_session',
      }),
    ).rejects.toMatchObject({ code: 'state.persistence_failed' });
    expect(await store.getMessages(session.id, { includeInactive: true })).toEqual(before);
    expect((await store.getSession(session.id))?.endedAt).toBeNull();
    expect(await store.listSessions()).toHaveLength(1);
    // The failed write did not mark the summary as written.
    const [id] = await store.appendMessages(session.id, [summary]);
    expect(id).toBeGreaterThan(before.at(-1)?.id ?? 0);
    await store.close();
  });

  it('keeps the lineage across child sessions', async () => {
    const store = openSessionStore();
    const root = await store.createSession({ source: 'telegram', userId: 'u1', model: 'm' });
    await store.appendMessages(root.id, sampleConversation());
    const first = await store.archiveAndCompact(root.id, {
      replacement: [{ role: 'user', content: 'summary one' }],
      mode: 'child_session',
    });
    const second = await store.archiveAndCompact(first.sessionId, {
      replacement: [{ role: 'user', content: 'summary two' }],
      mode: 'child_session',
      endReason: 'context_full',
    });
    const leaf = await store.getSession(second.sessionId);
    const middle = await store.getSession(first.sessionId);
    expect(leaf).toMatchObject({ parentSessionId: first.sessionId, userId: 'u1', model: 'm' });
    expect(middle).toMatchObject({ parentSessionId: root.id, endReason: 'context_full' });
    expect(await store.listSessions({ parentSessionId: root.id })).toHaveLength(1);
    expect((await store.search('zebrafish')).map((h) => h.sessionId)).toContain(root.id);
    await store.close();
  });
});

describe('SqliteSessionStore housekeeping', () => {
  it('prunes ended old sessions and deletes one session with its rows', async () => {
    const store = new SqliteSessionStore(dbPath('house.db'));
    const old = await store.createSession({ source: 'cli', startedAt: 1_000 });
    const oldOpen = await store.createSession({ source: 'cli', startedAt: 1_000 });
    const recent = await store.createSession({ source: 'cli', startedAt: 5_000 });
    await store.appendMessages(old.id, sampleConversation());
    await store.endSession(old.id, 'user_exit');
    await store.endSession(recent.id, 'user_exit');
    expect(await store.prune(2_000)).toBe(1);
    expect(await store.getSession(old.id)).toBeUndefined();
    expect(await store.getMessages(old.id, { includeInactive: true })).toEqual([]);
    expect(await store.search('zebrafish')).toEqual([]);
    expect(await store.getSession(oldOpen.id)).toBeDefined();
    expect(await store.deleteSession(recent.id)).toBe(true);
    expect(await store.deleteSession(recent.id)).toBe(false);
    expect((await store.listSessions()).map((s) => s.id)).toEqual([oldOpen.id]);
    await store.close();
  });

  it('exports a session as JSON and as a JSONL trajectory', async () => {
    const store = openSessionStore();
    await store.saveSystemPrompt('sha:1', 'Be brief.');
    const session = await store.createSession({ source: 'cli', systemPromptHash: 'sha:1' });
    const messages = sampleConversation();
    await store.appendMessages(session.id, messages);
    await store.saveToolSchemas(session.id, [
      {
        type: 'function',
        function: {
          name: 'terminal',
          description: 'Run a command',
          parameters: { type: 'object' },
        },
      },
    ]);
    const exported = await store.export(session.id);
    expect(exported?.messages.map((r) => r.message)).toEqual(messages);
    expect(JSON.parse(JSON.stringify(exported))).toEqual(exported);
    const jsonl = await store.exportTrajectoryJsonl(session.id);
    const lines = (jsonl ?? '')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[1]).toEqual({ type: 'system_prompt', text: 'Be brief.' });
    expect(lines[2].tools[0].function.name).toBe('terminal');
    expect(lines.slice(3).map((l) => l.message)).toEqual(messages);
    expect(lines[5].message.tool_calls).toHaveLength(2);
    expect(await store.exportTrajectoryJsonl('missing')).toBeUndefined();
    await store.close();
  });
});
