/** Which Discord messages reach the gateway: DMs always, guild messages only when addressed. */
import type { InboundMessage } from '@hermes/plugin-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import type { DiscordAdapter } from '../src/discord-adapter.js';
import { BOT_ID, type FakeDiscord } from './fake-discord.js';
import { discordFixture } from './fixture.js';

let fake: FakeDiscord | undefined;
let adapter: DiscordAdapter | undefined;
afterEach(async () => {
  await adapter?.disconnect();
  await fake?.close();
});

/** Connects an adapter that records messages; `next()` resolves the next one to arrive. */
async function connected(settings: Record<string, unknown> = {}) {
  ({ fake, adapter } = await discordFixture(settings));
  const received: InboundMessage[] = [];
  let wake: (() => void) | undefined;
  await adapter.connect((message) => {
    received.push(message);
    wake?.();
  });
  const next = async (): Promise<InboundMessage> => {
    while (received.length === 0) await new Promise<void>((resolve) => (wake = resolve));
    return received.shift() as InboundMessage;
  };
  return { fake: fake as FakeDiscord, received, next };
}

describe('Discord inbound gating', () => {
  it('a DM reaches the handler as a direct message', async () => {
    const { fake, next } = await connected();
    fake.dispatchMessage({ channelId: 'dm-1', userId: 'u-1', username: 'ada', content: 'hi' });
    expect(await next()).toMatchObject({
      platform: 'discord',
      chatId: 'dm-1',
      userId: 'u-1',
      userName: 'ada',
      text: 'hi',
      isDirect: true,
    });
  });

  it('in a guild, only a mention or a reply to the bot gets through, mention removed', async () => {
    const { fake, next } = await connected();
    const base = { channelId: 'chan-1', guildId: 'g-1', userId: 'u-1' };
    fake.dispatchMessage({ ...base, content: 'people talking among themselves' });
    fake.dispatchMessage({ ...base, content: 'from another bot', bot: true, mentionsBot: true });
    fake.dispatchMessage({ ...base, content: `<@${BOT_ID}> what time is it?`, mentionsBot: true });
    fake.dispatchMessage({ ...base, content: 'and tomorrow?', replyToBotMessage: '77' });
    // Messages arrive in order, so the first two were dropped if these two come first.
    expect(await next()).toMatchObject({ text: 'what time is it?', isDirect: false });
    expect(await next()).toMatchObject({ text: 'and tomorrow?', isDirect: false });
  });

  it('allowed_channels keeps the bot out of other guild channels but not DMs', async () => {
    const { fake, next } = await connected({ allowed_channels: ['chan-ok'] });
    const mention = {
      guildId: 'g-1',
      userId: 'u-1',
      content: `<@${BOT_ID}> hi`,
      mentionsBot: true,
    };
    fake.dispatchMessage({ ...mention, channelId: 'chan-other' });
    fake.dispatchMessage({ ...mention, channelId: 'chan-ok' });
    fake.dispatchMessage({ channelId: 'dm-9', userId: 'u-2', content: 'dm' });
    // Order holds within a channel, not across them (a guild channel may need a lookup first).
    const both = [await next(), await next()].sort((a, b) => a.chatId.localeCompare(b.chatId));
    expect(both[0]).toMatchObject({ chatId: 'chan-ok', isDirect: false });
    expect(both[1]).toMatchObject({ chatId: 'dm-9', isDirect: true });
    fake.dispatchMessage({ ...mention, channelId: 'chan-ok', content: 'last' });
    // Had chan-other got through, it would be the next one here.
    expect(await next()).toMatchObject({ chatId: 'chan-ok', text: 'last' });
  });
});
