/** The gateway's PlatformAdapter contract, run against the fake Bot API. */
import { describePlatformAdapterContract } from '@hermes/plugin-sdk/testing';
import { resolveTelegramSettings, TelegramAdapter } from '../src/index.ts';
import { FakeBotApi } from './fake-bot-api.ts';

const TOKEN = '123456:contract-token-AAAAAAAAAAAAAAAA';

describePlatformAdapterContract(
  'telegram',
  async () => {
    const api = await new FakeBotApi(TOKEN).start();
    const adapter = new TelegramAdapter(
      resolveTelegramSettings({ token: TOKEN, api_root: api.url, poll_timeout_seconds: 5 }),
    );
    return {
      adapter,
      simulateInbound: async (m) => {
        api.push({
          chatId: m.chatId,
          userId: m.userId,
          text: m.text,
          chatType: m.isDirect ? 'private' : 'supergroup',
          ...(m.userName ? { userName: m.userName } : {}),
          ...(m.threadId ? { threadId: Number(m.threadId) } : {}),
        });
      },
      cleanup: () => api.close(),
    };
  },
  { chatId: '1001' },
);
