/** The PlatformAdapter contract, run against the fake Slack. */
import { describePlatformAdapterContract } from '@hermes/plugin-sdk/testing';
import { slackFixture } from './helpers.ts';

describePlatformAdapterContract('slack adapter', async () => {
  const { fake, adapter } = await slackFixture();
  return {
    adapter,
    simulateInbound: async (message) => {
      await fake.push({
        type: 'message',
        channel_type: message.isDirect ? 'im' : 'channel',
        channel: message.chatId,
        user: message.userId,
        text: message.text,
        ts: `${Date.now() / 1000}`,
        ...(message.threadId ? { thread_ts: message.threadId } : {}),
      });
    },
    cleanup: () => fake.close(),
  };
});
