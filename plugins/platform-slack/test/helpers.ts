/** Builds adapters against a fresh fake Slack. */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveSlackSettings, SlackAdapter } from '../src/index.ts';
import { FakeSlack } from './fake-slack.ts';

export const BOT_TOKEN = 'xoxb-test-bot-token-0123456789';
export const APP_TOKEN = 'xapp-test-app-token-0123456789';

/** Log lines the adapter wrote, for token checks. */
export type LogLines = string[];

export const SIGNING_SECRET = 'test-signing-secret-0123456789abcdef';

/**
 * A fake and an adapter pointed at it (not connected). `extra` overrides settings (e.g.
 * `mode: 'http'`, which listens on a free port); `attachmentsDir` is where files go.
 */
export async function slackFixture(extra: Record<string, unknown> = {}, attachmentsDir?: string) {
  const fake = await FakeSlack.start();
  fake.fileToken = BOT_TOKEN;
  const lines: LogLines = [];
  const record = (level: string) => (message: string, details?: object) =>
    lines.push(`${level} ${message} ${details ? JSON.stringify(details) : ''}`);
  const adapter = new SlackAdapter(
    resolveSlackSettings(
      {
        bot_token: BOT_TOKEN,
        app_token: APP_TOKEN,
        signing_secret: SIGNING_SECRET,
        http_port: 0,
        api_url: fake.apiUrl,
        ...extra,
      },
      {},
    ),
    {
      attachmentsDir: attachmentsDir ?? join(process.env.HERMES_HOME ?? tmpdir(), 'slack-files'),
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
