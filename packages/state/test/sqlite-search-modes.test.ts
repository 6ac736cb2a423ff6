import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SqliteDatabase } from '../src/sqlite/connection.js';
import {
  browseRecentSessions,
  DiscoveryResultSchema,
  discoverSessions,
  lineageRoot,
  readSession,
  ScrollResultSchema,
  SessionSummarySchema,
  SessionTranscriptSchema,
  scrollSession,
} from '../src/sqlite/search/index.js';
import { addConversation, addMessage, addSession, openSearchDb } from './sqlite-search-support.js';

let db: SqliteDatabase;

beforeEach(() => {
  db = openSearchDb();
});

afterEach(() => db.close());

/** `count` numbered turns; `special` replaces the text of turn `at`. */
function turns(count: number, at = -1, special = ''): string[] {
  return Array.from({ length: count }, (_, i) => (i === at ? special : `turn number ${i}`));
}

describe('discoverSessions', () => {
  it('dedupes a lineage (root, child, grandchild) into one result ranked by its best hit', () => {
    addSession(db, { id: 'root', title: 'infra' });
    addSession(db, { id: 'child', parent: 'root' });
    addSession(db, { id: 'grandchild', parent: 'child' });
    addSession(db, { id: 'other' });
    addMessage(db, 'root', { role: 'user', content: 'terraform plan failed', active: false });
    const best = addMessage(db, 'child', {
      role: 'assistant',
      content: 'terraform terraform terraform state lock',
    });
    addMessage(db, 'grandchild', { role: 'user', content: 'terraform again' });
    addMessage(db, 'other', {
      role: 'user',
      content: 'a long message that mentions terraform only once among words',
    });
    expect(lineageRoot(db, 'grandchild')).toBe('root');

    const result = DiscoveryResultSchema.parse(discoverSessions(db, 'terraform'));
    expect(result.sessions.map((s) => s.rootSessionId)).toEqual(['root', 'other']);
    const [first] = result.sessions;
    expect(first?.session.id).toBe('child');
    expect(first?.bestHit.messageId).toBe(best);
    expect(first?.matchCount).toBe(3);
    expect(discoverSessions(db, 'terraform', { limit: 1 }).sessions).toHaveLength(1);
    expect(discoverSessions(db, '***').sessions).toEqual([]);
  });

  it('survives a parent cycle', () => {
    addSession(db, { id: 'a' });
    addSession(db, { id: 'b', parent: 'a' });
    db.prepare("UPDATE sessions SET parent_session_id = 'b' WHERE id = 'a'").run();
    addMessage(db, 'a', { role: 'user', content: 'cyclic lineage marker' });
    addMessage(db, 'b', { role: 'user', content: 'cyclic lineage marker too' });
    expect(lineageRoot(db, 'a')).toBe(lineageRoot(db, 'b'));
    expect(discoverSessions(db, 'marker').sessions).toHaveLength(1);
  });

  it('expands ±5 messages around the best hit and the first and last 3 user/assistant messages', () => {
    addSession(db, { id: 's' });
    const ids = addConversation(db, 's', turns(20, 10, 'the kraken incident'));
    addMessage(db, 's', { role: 'tool', content: 'tool output at the end', toolName: 'terminal' });
    addMessage(db, 's', {
      role: 'assistant',
      content: null,
      toolCalls: [{ name: 'x', arguments: '{}' }],
    });
    const [found] = discoverSessions(db, 'kraken').sessions;
    expect(found?.window.map((m) => m.id)).toEqual(ids.slice(5, 16));
    expect(found?.window[5]?.content).toBe('the kraken incident');
    expect(found?.firstMessages.map((m) => m.id)).toEqual(ids.slice(0, 3));
    expect(found?.lastMessages.map((m) => m.id)).toEqual(ids.slice(17, 20));
    expect(found?.lastMessages.every((m) => m.role === 'user' || m.role === 'assistant')).toBe(
      true,
    );
  });

  it('clips the window at the session edges and honours windowSize and maxContentChars', () => {
    addSession(db, { id: 's' });
    const ids = addConversation(db, 's', turns(8, 1, `walrus ${'x'.repeat(50)}`));
    const [found] = discoverSessions(db, 'walrus', { windowSize: 2, maxContentChars: 13 }).sessions;
    expect(found?.window.map((m) => m.id)).toEqual(ids.slice(0, 4));
    expect(found?.window[1]).toMatchObject({ content: 'walrus xxxxxx…', truncated: true });
    expect(found?.window[0]?.truncated).toBe(false);
  });
});

describe('scrollSession', () => {
  it('returns the anchor with up to `before` and `after` neighbours and says whether more exist', () => {
    addSession(db, { id: 's' });
    addSession(db, { id: 'elsewhere' });
    const ids = addConversation(db, 's', turns(12));
    addConversation(db, 'elsewhere', turns(3));
    const anchor = ids[6] ?? 0;
    const around = ScrollResultSchema.parse(scrollSession(db, 's', anchor));
    expect(around.messages.map((m) => m.id)).toEqual(ids.slice(1, 12));
    expect(around).toMatchObject({ anchorMessageId: anchor, hasEarlier: true, hasLater: false });
    const narrow = scrollSession(db, 's', anchor, { before: 0, after: 2 });
    expect(narrow?.messages.map((m) => m.id)).toEqual(ids.slice(6, 9));
    expect(narrow).toMatchObject({ hasEarlier: true, hasLater: true });
    const start = scrollSession(db, 's', ids[0] ?? 0, { before: 3, after: 1 });
    expect(start?.messages.map((m) => m.id)).toEqual(ids.slice(0, 2));
    expect(start?.hasEarlier).toBe(false);
  });

  it('includes archived rows and returns undefined for an anchor outside the session', () => {
    addSession(db, { id: 's' });
    addSession(db, { id: 't' });
    const old = addMessage(db, 's', { role: 'user', content: 'archived', active: false });
    const summary = addMessage(db, 's', { role: 'user', content: 'summary' });
    const foreign = addMessage(db, 't', { role: 'user', content: 'foreign' });
    const result = scrollSession(db, 's', summary);
    expect(result?.messages.map((m) => [m.id, m.active])).toEqual([
      [old, false],
      [summary, true],
    ]);
    expect(scrollSession(db, 's', foreign)).toBeUndefined();
    expect(scrollSession(db, 'missing', summary)).toBeUndefined();
  });
});

describe('readSession', () => {
  it('returns every row in order with text, tool calls and tool names', () => {
    addSession(db, { id: 's', title: 'reading' });
    const old = addMessage(db, 's', { role: 'user', content: 'old question', active: false });
    const parts = addMessage(db, 's', {
      role: 'user',
      content: [{ type: 'text', text: 'see' }, { type: 'image_url' }],
    });
    const call = addMessage(db, 's', {
      role: 'assistant',
      content: null,
      toolCalls: [{ name: 'terminal', arguments: '{"cmd":"ls"}' }],
    });
    const result = addMessage(db, 's', { role: 'tool', content: 'a b c', toolName: 'terminal' });
    const transcript = SessionTranscriptSchema.parse(readSession(db, 's'));
    expect(transcript.session).toMatchObject({ id: 's', title: 'reading', messageCount: 4 });
    expect(transcript.messages.map((m) => m.id)).toEqual([old, parts, call, result]);
    expect(transcript.messages[1]?.content).toBe('see\n[image]');
    expect(transcript.messages[2]).toMatchObject({
      content: '',
      toolCalls: [{ name: 'terminal', arguments: '{"cmd":"ls"}' }],
    });
    expect(transcript.messages[3]).toMatchObject({ toolName: 'terminal', toolCalls: [] });
    expect(readSession(db, 's', { includeArchived: false })?.messages.map((m) => m.id)).toEqual([
      parts,
      call,
      result,
    ]);
    expect(readSession(db, 'missing')).toBeUndefined();
  });
});

describe('browseRecentSessions', () => {
  it('lists sessions newest first with platform filter, archived hidden, limit and previews', () => {
    addSession(db, { id: 'old', source: 'cli', startedAt: 1_000 });
    addSession(db, { id: 'mid', source: 'telegram', startedAt: 2_000 });
    addSession(db, { id: 'new', source: 'cli', startedAt: 3_000 });
    addSession(db, { id: 'hidden', source: 'cli', startedAt: 4_000, archived: true });
    addMessage(db, 'new', { role: 'assistant', content: 'hi', createdAt: 3_100 });
    addMessage(db, 'new', { role: 'user', content: 'what is the plan', createdAt: 3_500 });
    const all = browseRecentSessions(db).map((s) => SessionSummarySchema.parse(s));
    expect(all.map((s) => s.id)).toEqual(['new', 'mid', 'old']);
    expect(all[0]).toMatchObject({
      preview: 'what is the plan',
      messageCount: 2,
      lastActiveAt: 3_500,
    });
    expect(all[1]).toMatchObject({ preview: null, messageCount: 0, lastActiveAt: 2_000 });
    expect(browseRecentSessions(db, { platform: 'cli' }).map((s) => s.id)).toEqual(['new', 'old']);
    expect(browseRecentSessions(db, { limit: 1 }).map((s) => s.id)).toEqual(['new']);
    expect(browseRecentSessions(db, { includeArchived: true })[0]?.id).toBe('hidden');
  });
});
