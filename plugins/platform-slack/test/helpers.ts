/** Builds adapters against a fresh fake Slack. */
import { resolveSlackSettings, SlackAdapter } from '../src/index.ts';
import { FakeSlack } from './fake-slack.ts';

export const BOT_TOKEN = 'xoxb-test-bot-token-0123456789';
export const APP_TOKEN = 'xapp-test-app-token-0123456789';

/** Log lines the adapter wrote, for token checks. */
export type LogLines = string[];

/** A fake and an adapter pointed at it (not connected). */
export async function slackFixture(extra: Record<string, unknown> = {}) {
  const fake = await FakeSlack.start();
  const lines: LogLines = [];
  const record = (level: string) => (message: string, details?: object) =>
    lines.push(`${level} ${message} ${details ? JSON.stringify(details) : ''}`);
  const adapter = new SlackAdapter(
    resolveSlackSettings(
      { bot_token: BOT_TOKEN, app_token: APP_TOKEN, api_url: fake.apiUrl, ...extra },
      {},
    ),
    {
      logger: {
        debug: record('debug'),
        info: record('info'),
        warn: record('warn'),
        error: record('error'),
      },
    },
  );
  return { fake, adapter, lines };
}
