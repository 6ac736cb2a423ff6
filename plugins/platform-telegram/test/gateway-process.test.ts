/**
 * End to end: the built `hermes-gateway run` as a real process, with this plugin — bundled with
 * the gateway, so only `plugins.enabled` names it — pointed at the fake Bot API, the agent
 * answered by the testkit's scripted model (`hermes-testkit serve`, also a real process).
 * Polling: an allowed user's DM is answered, a stranger gets a pairing code, a group message is
 * answered only when it mentions or replies to the bot. Webhook: the fake posts a DM to the
 * gateway's webhook port and the answer comes back.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NodeProcess } from '@hermes/plugin-sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeBotApi } from './fake-bot-api.ts';
import { requireBuild, startGateway, startModel } from './processes.ts';
import { TOKEN } from './support.ts';

const home = () => process.env.HERMES_HOME as string;
const stoppers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const stop of stoppers.splice(0).reverse()) await stop();
});

/** A turn answering the user message containing `text` with `Echo: <text>.` */
const echo = (text: string) => ({ text: `Echo: ${text}.`, match: { lastUserIncludes: text } });
/** Turns nobody should reach: their answer in a chat means gating or pairing let it through. */
const leak = (text: string) => ({ text: 'LEAKED', match: { lastUserIncludes: text } });

async function setUp(turns: readonly object[], telegram: readonly string[]) {
  requireBuild();
  const api = await new FakeBotApi(TOKEN).start();
  stoppers.push(() => api.close());
  const model = await startModel(home(), turns);
  stoppers.push(() => model.child.stop());
  writeFileSync(
    join(home(), 'config.yaml'),
    [
      'model:\n  provider: openai\n  default: scripted-model',
      `  base_url: ${model.baseUrl}`,
      // No session titles: a title request would take the next scripted answer.
      'learning:\n  titles: false',
      'plugins:\n  enabled: [platform-telegram]',
      'platforms:\n  telegram:\n    enabled: true',
      `    api_root: ${api.url}`,
      "    allowed_users: ['7']",
      ...telegram.map((line) => `    ${line}`),
      '',
    ].join('\n'),
  );
  const gateway = await startGateway(home(), { TELEGRAM_BOT_TOKEN: TOKEN });
  stoppers.push(() => gateway.stop());
  return { api, gateway };
}

/** Stops the gateway (exit 0) and checks that no secret reached its output or log file. */
async function stopClean(gateway: NodeProcess, secrets: readonly string[]): Promise<void> {
  expect(await gateway.stop()).toBe(0);
  const logFile = join(home(), 'logs', 'gateway.log');
  const log = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
  for (const secret of ['SECRET-test-token', ...secrets]) {
    expect(gateway.out).not.toContain(secret);
    expect(log).not.toContain(secret);
  }
}

describe('hermes-gateway run with platform-telegram', { timeout: 60_000 }, () => {
  it('polling: answers an allowed DM, pairs a stranger, and gates group messages on mention or reply', async () => {
    const { api, gateway } = await setUp(
      [
        echo('hello from my phone'),
        echo('what time is it'),
        echo('and now?'),
        leak('who are you'),
        leak('just chatting'),
      ],
      ['poll_timeout_seconds: 2'],
    );
    expect(gateway.out).toContain('telegram connected');
    await api.waitForCall((c) => c.method === 'getUpdates');
    const deleted = api.calls.findIndex((c) => c.method === 'deleteWebhook');
    expect(deleted).toBeGreaterThanOrEqual(0);
    expect(deleted).toBeLessThan(api.calls.findIndex((c) => c.method === 'getUpdates'));

    // An allowed user's DM reaches the agent and the answer comes back to the chat.
    api.push({ chatId: 7, userId: 7, text: 'hello from my phone' });
    const answer = 'Echo: hello from my phone\\.';
    const dm = await api.waitForSent('7', (sent) => sent.some((s) => s.text === answer));
    expect(dm.map((s) => s.text)).toEqual([answer]);

    // A stranger gets a pairing code, not the agent.
    api.push({ chatId: 8, userId: 8, text: 'who are you?' });
    const [pairing] = await api.waitForSent('8', (sent) => sent.length > 0);
    expect(pairing?.text).toMatch(/[A-HJ-NP-Z2-9]{8}/);
    expect(pairing?.text).not.toContain('LEAKED');

    // In a group: no mention, no answer; a mention or a reply to the bot is answered.
    api.push({ chatId: -100, userId: 7, text: 'just chatting', chatType: 'supergroup' });
    api.push({
      chatId: -100,
      userId: 7,
      text: '@hermes_test_bot what time is it',
      chatType: 'supergroup',
    });
    const first = 'Echo: what time is it\\.';
    await api.waitForSent('-100', (sent) => sent.some((s) => s.text === first));
    // (the reply waits for the first answer: sent during a turn it would steer that turn)
    api.push({
      chatId: -100,
      userId: 7,
      text: 'and now?',
      chatType: 'supergroup',
      replyToBot: true,
    });
    const second = 'Echo: and now?\\.';
    const group = await api.waitForSent('-100', (sent) => sent.some((s) => s.text === second));
    expect(group.map((s) => s.text)).toEqual([first, second]);

    await stopClean(gateway, []);
  });

  it('webhook: listens on a free port, registers with setWebhook, and answers a DM Telegram posts', async () => {
    const { api, gateway } = await setUp(
      [echo('hello by webhook')],
      ['mode: webhook', 'webhook_url: https://bot.example.test/tg/hook', 'webhook_port: 0'],
    );
    const [, port] = await gateway.waitFor(/telegram listening on http:\/\/127\.0\.0\.1:(\d+)/);
    const registration = api.webhook.registration;
    expect(registration).toMatchObject({ url: 'https://bot.example.test/tg/hook' });
    const secret = registration?.secret ?? '';
    expect(secret).toMatch(/^[A-Za-z0-9_-]{32,}$/); // made per process: none was configured
    expect(api.calls.some((c) => c.method === 'getUpdates')).toBe(false);

    api.webhook.proxyTo(`http://127.0.0.1:${port}`);
    const delivery = await api.deliver({ chatId: 7, userId: 7, text: 'hello by webhook' });
    expect(delivery.status).toBe(200);
    const answer = 'Echo: hello by webhook\\.';
    const sent = await api.waitForSent('7', (all) => all.some((s) => s.text === answer));
    expect(sent.map((s) => s.text)).toEqual([answer]);

    await stopClean(gateway, [secret]);
    // The gateway's exit closed the port: Telegram's next post reaches nothing.
    expect((await api.deliver({ chatId: 7, userId: 7, text: 'anyone?' })).status).toBe(0);
  });
});
