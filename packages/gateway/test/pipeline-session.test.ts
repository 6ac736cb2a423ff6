import { script } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './support/gateway-harness.js';

type Body = { messages: { role: string; content: unknown }[] };

function sawText(h: Harness, index: number, text: string): boolean {
  const body = h.server.requests[index]?.body as Body | undefined;
  return JSON.stringify(body?.messages ?? []).includes(text);
}

/** A clock the test moves by hand. */
function manualClock(start: number) {
  const clock = { now: start, read: () => clock.now };
  return clock;
}

const MINUTE = 60_000;

describe('session keys and reset policies', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('idle reset: after the idle time the next message starts a new session, with a notice', async () => {
    const clock = manualClock(Date.UTC(2024, 0, 10, 12));
    h = await startHarness(
      script().text('Noted.').next().text('Still here.').next().text('Fresh start.'),
      {
        gateway: { allowed_users: ['u1'], reset: { policy: 'idle', idle_minutes: 60 } },
        clock: clock.read,
      },
    );
    await h.say('the code word is heron');
    await h.gateway.settled();
    clock.now += 59 * MINUTE;
    await h.say('still there?');
    await h.gateway.settled();
    expect(sawText(h, 1, 'heron')).toBe(true);
    expect(h.texts().some((t) => t.startsWith('Starting a fresh conversation'))).toBe(false);

    clock.now += 61 * MINUTE;
    await h.say('what was the code word?');
    await h.gateway.settled();
    expect(h.texts()).toContain(
      'Starting a fresh conversation: the last one was quiet for over 1 hour. (Earlier chats stay searchable.)',
    );
    expect(sawText(h, 2, 'heron')).toBe(false);
    expect(h.texts().at(-1)).toBe('Fresh start.');
  });

  it('daily reset: the first message after the daily hour starts a new session', async () => {
    const clock = manualClock(new Date(2024, 0, 10, 23, 0).getTime());
    h = await startHarness(script().text('Night answer.').next().text('Morning answer.'), {
      gateway: { allowed_users: ['u1'], reset: { policy: 'daily', daily_hour: 4 } },
      clock: clock.read,
    });
    await h.say('late night note: kestrel');
    await h.gateway.settled();
    clock.now = new Date(2024, 0, 11, 5, 0).getTime();
    await h.say('good morning');
    await h.gateway.settled();
    expect(h.texts().some((t) => t.startsWith('Starting a new conversation for today'))).toBe(true);
    expect(sawText(h, 1, 'kestrel')).toBe(false);
  });

  it('policy none (the default) never resets', async () => {
    const clock = manualClock(Date.UTC(2024, 0, 10, 12));
    h = await startHarness(script().text('One.').next().text('Two.'), { clock: clock.read });
    await h.say('remember osprey');
    await h.gateway.settled();
    clock.now += 30 * 24 * 60 * MINUTE;
    await h.say('and now?');
    await h.gateway.settled();
    expect(sawText(h, 1, 'osprey')).toBe(true);
  });

  it('group chats: one session per member by default', async () => {
    h = await startHarness(script().text('Hi A.').next().text('Hi B.'), {
      gateway: { allowed_users: ['a', 'b'] },
    });
    await h.say('I am member A, secret albatross', { userId: 'a', chatId: 'g1', isDirect: false });
    await h.gateway.settled();
    await h.say('I am member B', { userId: 'b', chatId: 'g1', isDirect: false });
    await h.gateway.settled();
    expect(sawText(h, 1, 'albatross')).toBe(false);
    expect(h.builds.map((b) => b.sessionKey)).toEqual([
      'agent:default:loopback:group:g1:a',
      'agent:default:loopback:group:g1:b',
    ]);
  });

  it('group chats share one session with group_sessions_per_user: false', async () => {
    h = await startHarness(script().text('Hi A.').next().text('Hi B.'), {
      gateway: { allowed_users: ['a', 'b'], group_sessions_per_user: false },
    });
    await h.say('member A says: albatross', { userId: 'a', chatId: 'g1', isDirect: false });
    await h.gateway.settled();
    await h.say('member B asks what A said', { userId: 'b', chatId: 'g1', isDirect: false });
    await h.gateway.settled();
    expect(sawText(h, 1, 'albatross')).toBe(true);
    expect(h.builds).toHaveLength(1);
  });

  it('a thread gets its own session, apart from its chat', async () => {
    h = await startHarness(script().text('In the channel.').next().text('In the thread.'), {
      gateway: { allowed_users: ['u1'], group_sessions_per_user: false },
    });
    await h.say('channel talk: puffin', { chatId: 'c1', isDirect: false });
    await h.gateway.settled();
    await h.say('thread talk', { chatId: 'c1', threadId: 't9', isDirect: false });
    await h.gateway.settled();
    expect(sawText(h, 1, 'puffin')).toBe(false);
    expect(h.builds.at(-1)?.sessionKey).toBe('agent:default:loopback:thread:c1/t9');
    // The thread's reply goes to the thread.
    expect(h.adapter.sent.at(-1)?.target).toEqual({ chatId: 'c1', threadId: 't9' });
  });

  it('a restart continues each chat on its stored session (routes are durable)', async () => {
    h = await startHarness(script().text('Noted.').next().text('Remembered.'));
    await h.say('the password hint is lighthouse');
    await h.gateway.settled();
    const server = h.server;
    await h.gateway.stop();
    h = await startHarness(script(), { server });
    await h.say('what was the hint?');
    await h.gateway.settled();
    expect(sawText(h, 1, 'lighthouse')).toBe(true);
    expect(h.builds[0]?.sessionId).toBeDefined();
    await server.close();
  });
});
