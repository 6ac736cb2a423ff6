import { script } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './support/gateway-harness.js';

type Body = { messages: { role: string; content: unknown }[] };

function sawText(h: Harness, index: number, text: string): boolean {
  const body = h.server.requests[index]?.body as Body | undefined;
  return JSON.stringify(body?.messages ?? []).includes(text);
}

describe('the agent cache under the pipeline', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('an evicted agent is closed, and rebuilt from the store with nothing lost', async () => {
    h = await startHarness(
      script()
        .text('Noted, wren.')
        .match({ lastUserIncludes: 'wren' })
        .next()
        .text('Hello B.')
        .match({ lastUserIncludes: 'B here' })
        .next()
        .text('It was a wren.')
        .match({ lastUserIncludes: 'which bird' }),
      { gateway: { allowed_users: ['a', 'b'], agent_cache: { max: 1 } } },
    );
    await h.say('remember the bird: wren', { userId: 'a', chatId: 'dm-a' });
    await h.gateway.settled();
    await h.say('B here', { userId: 'b', chatId: 'dm-b' });
    await h.gateway.settled();
    // B's agent pushed A's out: one agent cached, A's closed.
    expect(h.gateway.health().cachedAgents).toBe(1);
    expect(h.closed.count).toBe(1);

    await h.say('which bird did I name?', { userId: 'a', chatId: 'dm-a' });
    await h.gateway.settled();
    expect(h.builds).toHaveLength(3);
    const [first, , rebuilt] = h.builds;
    expect(rebuilt?.sessionKey).toBe(first?.sessionKey);
    expect(rebuilt?.sessionId).toBeDefined();
    // The rebuilt agent loaded the whole conversation: question and answer of the first turn.
    expect(sawText(h, 2, 'remember the bird: wren')).toBe(true);
    expect(sawText(h, 2, 'Noted, wren.')).toBe(true);
    expect(h.texts('dm-a')).toContain('It was a wren.');
  });

  it('the same session key reuses its cached agent across messages', async () => {
    h = await startHarness(script().text('One.').next().text('Two.').next().text('Three.'));
    for (const text of ['one', 'two', 'three']) {
      await h.say(text);
      await h.gateway.settled();
    }
    expect(h.builds).toHaveLength(1);
    expect(h.gateway.health().cachedAgents).toBe(1);
  });
});
