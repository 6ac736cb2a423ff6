/** The PlatformAdapter contract, against the fake Discord gateway + REST API. */
import { describePlatformAdapterContract } from '@hermes/plugin-sdk/testing';
import { discordFixture } from './fixture.js';

describePlatformAdapterContract('discord', async () => {
  const { fake, adapter } = await discordFixture();
  return {
    adapter,
    simulateInbound: async (message) => {
      fake.dispatchMessage({
        channelId: message.chatId,
        userId: message.userId,
        ...(message.userName ? { username: message.userName } : {}),
        content: message.text,
        ...(message.isDirect ? {} : { guildId: 'guild-1', mentionsBot: true }),
      });
    },
    cleanup: () => fake.close(),
  };
});
