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
import type { FakeDiscord } from './fake-discord.js';
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
  let asked: (() => void) | undefined;
  const agentAsked = new Promise<void>((resolve) => (asked = resolve));
  gateway = new Gateway({
    settings: resolveGatewaySettings({}),
    platforms: resolvePlatformSettings({ discord: { enabled: true, allowed_users: ['friend-1'] } }),
    adapters: [adapter],
    // The agent itself lives outside what a plugin may import; the gateway asking for one for
    // this Discord chat is the hand-over this test checks.
    agentFactory: (request) => {
      requests.push(request);
      asked?.();
      throw new HermesError('test.no_agent', 'no agent in this test');
    },
    store,
    hermesHome,
  });
  await gateway.start();
  return { fake: fake as FakeDiscord, requests, agentAsked };
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
});
