/**
 * The Discord adapter inside the real `Gateway` (authorization, pairing, the SQLite store in the
 * test's HERMES_HOME), against the fake Discord. A stranger's DM gets a pairing code back through
 * Discord REST; an allowed user's DM makes the gateway ask for an agent for that Discord chat.
 */
import {
  type AgentRequest,
  Gateway,
  HermesError,
  resolveGatewaySettings,
  resolvePlatformSettings,
  SqliteGatewayStore,
} from '@hermes/plugin-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import type { DiscordAdapter } from '../src/discord-adapter.js';
import { BOT_ID, type FakeDiscord } from './fake-discord.js';
import { discordFixture } from './fixture.js';

let gateway: Gateway | undefined;
let fake: FakeDiscord | undefined;
let store: SqliteGatewayStore | undefined;
afterEach(async () => {
  await gateway?.stop();
  await fake?.close();
  await store?.close();
});

async function startGateway() {
  let adapter: DiscordAdapter;
  ({ fake, adapter } = await discordFixture());
  const hermesHome = process.env.HERMES_HOME as string;
  store = SqliteGatewayStore.open({ hermesHome });
  const requests: AgentRequest[] = [];
  const waiting: Array<() => void> = [];
  const asked = () => {
    for (const wake of waiting.splice(0)) wake();
  };
  const agentsAsked = async (count: number) => {
    while (requests.length < count) await new Promise<void>((resolve) => waiting.push(resolve));
  };
  const agentAsked = agentsAsked(1);
  gateway = new Gateway({
    settings: resolveGatewaySettings({}),
    platforms: resolvePlatformSettings({ discord: { enabled: true, allowed_users: ['friend-1'] } }),
    adapters: [adapter],
    // The agent itself lives outside what a plugin may import; the gateway asking for one for
    // this Discord chat is the hand-over this test checks.
    agentFactory: (request) => {
      requests.push(request);
      asked();
      throw new HermesError('test.no_agent', 'no agent in this test');
    },
    store,
    hermesHome,
  });
  await gateway.start();
  return { fake: fake as FakeDiscord, requests, agentAsked, agentsAsked };
}

describe('Discord in the gateway pipeline', () => {
  it('a stranger in a DM gets a pairing code in that DM, and no agent runs', async () => {
    const { fake, requests } = await startGateway();
    fake.dispatchMessage({ channelId: 'dm-stranger', userId: 'stranger-1', content: 'hello?' });
    const [reply] = await fake.waitForMessages(1);
    expect(reply?.channelId).toBe('dm-stranger');
    expect(reply?.content).toMatch(/pairing code is [A-Z0-9]+/);
    expect(requests).toHaveLength(0);
  });

  it('an allowed user in a DM reaches the agent step for that Discord chat', async () => {
    const { fake, requests, agentAsked } = await startGateway();
    fake.dispatchMessage({ channelId: 'dm-friend', userId: 'friend-1', content: 'hi agent' });
    await agentAsked;
    expect(requests[0]).toMatchObject({ platform: 'discord', userId: 'friend-1' });
    expect(requests[0]?.origin).toMatchObject({ platform: 'discord', chatId: 'dm-friend' });
  });

  it('two Discord threads of one channel are two sessions, each knowing its thread', async () => {
    const { fake, requests, agentsAsked } = await startGateway();
    fake.addThread({ id: 'th-a', parentId: 'chan-1' });
    fake.addThread({ id: 'th-b', parentId: 'chan-1', announce: false });
    const ask = (channelId: string) =>
      fake.dispatchMessage({
        channelId,
        guildId: 'g-1',
        userId: 'friend-1',
        content: `<@${BOT_ID}> hi`,
        mentionsBot: true,
      });
    ask('th-a');
    ask('th-b');
    await agentsAsked(2);
    const byThread = new Map(requests.map((r) => [r.origin?.threadId, r]));
    expect(byThread.get('th-a')?.origin).toEqual({
      platform: 'discord',
      chatId: 'chan-1',
      threadId: 'th-a',
    });
    expect(byThread.get('th-b')?.origin).toMatchObject({ chatId: 'chan-1', threadId: 'th-b' });
    const keys = requests.map((r) => r.sessionKey);
    expect(new Set(keys).size).toBe(2);
    expect(keys.every((key) => key.includes(':thread:'))).toBe(true);
  });
});
