/**
 * Session keys: one conversation per chat (per member in groups, per thread), and ids that can
 * never make two different chats share a key.
 */
import { describe, expect, it } from 'vitest';
import { buildSessionKey } from '../src/index.js';

const perUser = { groupSessionsPerUser: true };
const shared = { groupSessionsPerUser: false };

function message(fields: {
  platform?: string;
  chatId: string;
  userId?: string;
  threadId?: string;
  isDirect: boolean;
}) {
  return { platform: 'telegram', userId: 'u1', ...fields };
}

describe('buildSessionKey', () => {
  it('keys a DM by chat alone', () => {
    expect(buildSessionKey('default', message({ chatId: '42', isDirect: true }), perUser)).toBe(
      'agent:default:telegram:dm:42',
    );
  });

  it('gives each member of a group their own session unless told to share', () => {
    const alice = message({ chatId: 'g1', userId: 'alice', isDirect: false });
    const bob = message({ chatId: 'g1', userId: 'bob', isDirect: false });
    expect(buildSessionKey('default', alice, perUser)).toBe(
      'agent:default:telegram:group:g1:alice',
    );
    expect(buildSessionKey('default', bob, perUser)).toBe('agent:default:telegram:group:g1:bob');
    expect(buildSessionKey('default', alice, shared)).toBe('agent:default:telegram:group:g1');
    expect(buildSessionKey('default', bob, shared)).toBe(buildSessionKey('default', alice, shared));
  });

  it('gives a thread its own key, shared by everyone in it', () => {
    const inThread = (userId: string) =>
      message({ chatId: 'c9', threadId: 't7', userId, isDirect: false });
    expect(buildSessionKey('default', inThread('alice'), perUser)).toBe(
      'agent:default:telegram:thread:c9/t7',
    );
    expect(buildSessionKey('default', inThread('bob'), perUser)).toBe(
      buildSessionKey('default', inThread('alice'), perUser),
    );
    expect(buildSessionKey('default', inThread('alice'), perUser)).not.toBe(
      buildSessionKey('default', message({ chatId: 'c9', isDirect: false }), shared),
    );
  });

  it('keeps profiles and platforms apart', () => {
    const dm = message({ chatId: '42', isDirect: true });
    expect(buildSessionKey('work', dm, perUser)).toBe('agent:work:telegram:dm:42');
    expect(buildSessionKey('default', { ...dm, platform: 'discord' }, perUser)).toBe(
      'agent:default:discord:dm:42',
    );
  });

  it('percent-escapes ":", "/" and "%" so crafted ids never collide', () => {
    const key = (fields: Parameters<typeof message>[0]) =>
      buildSessionKey('default', message(fields), perUser);
    // Without escaping, chat "a:b" of user "c" and chat "a" of user "b:c" would share a key.
    const first = key({ chatId: 'a:b', userId: 'c', isDirect: false });
    const second = key({ chatId: 'a', userId: 'b:c', isDirect: false });
    expect(first).toBe('agent:default:telegram:group:a%3Ab:c');
    expect(second).toBe('agent:default:telegram:group:a:b%3Ac');
    expect(first).not.toBe(second);
    // … and thread "x" of chat "a/b" would meet thread "b/x" of chat "a".
    expect(key({ chatId: 'a/b', threadId: 'x', isDirect: false })).not.toBe(
      key({ chatId: 'a', threadId: 'b/x', isDirect: false }),
    );
    // "%" is escaped too, so an id that looks escaped stays distinct from the raw one.
    expect(key({ chatId: 'a%3Ab', userId: 'c', isDirect: false })).toBe(
      'agent:default:telegram:group:a%253Ab:c',
    );
    expect(buildSessionKey('a:b', message({ chatId: '1', isDirect: true }), perUser)).toBe(
      'agent:a%3Ab:telegram:dm:1',
    );
  });

  it('never collides over many awkward ids', () => {
    const parts = ['a', 'b', ':', '/', '%', 'a:b', 'a/b', '%3A', '%2F', '%25', ':/', 'x%'];
    const seen = new Map<string, string>();
    for (const chatId of parts) {
      for (const userId of parts) {
        for (const threadId of [undefined, ...parts]) {
          const fields = { chatId, userId, isDirect: false, ...(threadId ? { threadId } : {}) };
          const identity = JSON.stringify([chatId, threadId ? '' : userId, threadId ?? null]);
          const key = buildSessionKey('default', message(fields), perUser);
          const earlier = seen.get(key);
          if (earlier !== undefined) expect(earlier).toBe(identity);
          seen.set(key, identity);
        }
      }
    }
    expect(seen.size).toBe(parts.length * parts.length + parts.length * parts.length);
  });
});
