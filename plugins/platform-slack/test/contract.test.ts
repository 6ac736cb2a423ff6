/** The PlatformAdapter contract, run against the fake Slack. */
import { describePlatformAdapterContract } from '@hermes/plugin-sdk/testing';
import { slackFixture } from './helpers.ts';

/**
 * Slack's message ids (`ts`) are unique per channel; two messages injected within one millisecond
 * must not share one, or the adapter rightly drops the second as a redelivery.
 */
let sequence = 0;
const nextTs = () => `${Math.floor(Date.now() / 1000)}.${String(++sequence).padStart(6, '0')}`;

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
        ts: nextTs(),
        ...(message.threadId ? { thread_ts: message.threadId } : {}),
      });
    },
    cleanup: () => fake.close(),
  };
});
