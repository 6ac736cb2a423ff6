/**
 * The AgentRequest names the chat the session talks to (`origin`: platform, chat, thread), so the
 * agent factory can hand it to the agent's tools — a job created from a chat delivers back there.
 */
import { script } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './support/gateway-harness.js';

describe('AgentRequest.origin', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('is the inbound message’s platform, chat and thread', async () => {
    h = await startHarness(script().text('Hi in the thread.').next().text('Hi in the DM.'), {
      gateway: { allowed_users: ['u1'] },
    });
    await h.say('hello', { chatId: 'group-9', threadId: 'topic-3', isDirect: false });
    await h.gateway.settled();
    await h.say('hello again', { chatId: 'dm-1' });
    await h.gateway.settled();
    expect(h.builds.map((request) => request.origin)).toEqual([
      { platform: 'loopback', chatId: 'group-9', threadId: 'topic-3' },
      { platform: 'loopback', chatId: 'dm-1' },
    ]);
  });
});
