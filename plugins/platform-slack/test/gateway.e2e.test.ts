/**
 * End to end: the built `hermes-gateway run`, a real process, with this plugin installed and
 * `platforms.slack` pointed at the fake Slack; the agent answers from the testkit's scripted
 * model. A stranger gets a pairing code, an allowed user's DM is answered, an unmentioned
 * channel message is not, and a 10,000-character answer streams by chat.update and is split.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NodeProcess } from '@hermes/plugin-sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeSlack } from './fake-slack.ts';
import { APP_TOKEN, BOT_TOKEN, SIGNING_SECRET } from './helpers.ts';
import { installPlugin, requireBuild, startGateway, startModel } from './processes.ts';
import { callback, postSigned } from './signed-post.ts';

const home = () => process.env.HERMES_HOME as string;
const LONG = Array.from({ length: 10 }, (_, i) => `Paragraph ${i}: ${'lorem '.repeat(165)}`).join(
  '\n\n',
);
const HEALTH_KEY = 'health-key-0123456789abcdef';
const children: NodeProcess[] = [];
let fake: FakeSlack | undefined;

afterEach(async () => {
  for (const child of children.splice(0)) await child.stop();
  await fake?.close();
  fake = undefined;
});

/** What a test changes in config.yaml. */
interface ConfigOptions {
  /** `false` sends each answer once, through the delivery ledger. */
  readonly stream?: boolean;
  /** Also serve the API server (for `/health`) with this key, on a free port. */
  readonly healthKey?: string;
  /** `platforms.slack` lines beyond the bot token, the URL and the allowlist. */
  readonly slack?: readonly string[];
}

/** config.yaml for the model and the fake; Socket Mode unless `options.slack` says otherwise. */
function writeConfig(baseUrl: string, apiUrl: string, options: ConfigOptions = {}): void {
  const apiServer = options.healthKey
    ? ['  api_server:', '    enabled: true', '    port: 0', `    key: ${options.healthKey}`]
    : [];
  writeFileSync(
    join(home(), 'config.yaml'),
    [
      'model:',
      '  provider: openai',
      '  default: scripted-model',
      `  base_url: ${baseUrl}`,
      // No session titles: a title request would take the next scripted answer.
      'learning:',
      '  titles: false',
      'plugins:',
      '  enabled: [platform-slack]',
      'gateway:',
      '  stream:',
      `    enabled: ${options.stream ?? true}`,
      '    edit_interval_ms: 50',
      'platforms:',
      ...apiServer,
      '  slack:',
      '    enabled: true',
      `    bot_token: ${BOT_TOKEN}`,
      `    api_url: ${apiUrl}`,
      '    allowed_users: [U1]',
      ...(options.slack ?? [`    app_token: ${APP_TOKEN}`]),
      '',
    ].join('\n'),
  );
}

describe('hermes-gateway run with the slack plugin', { timeout: 60_000 }, () => {
  it('pairs a stranger, answers a DM, gates a channel, streams and splits a long answer', async () => {
    requireBuild();
    fake = await FakeSlack.start();
    const slack = fake;
    const model = await startModel(home(), [
      { text: 'Hello from the agent.', match: { lastUserIncludes: 'hello' } },
      {
        text: LONG,
        match: { lastUserIncludes: 'long please' },
        chunking: { textChunkSize: 400 },
        delayMs: 5,
      },
    ]);
    children.push(model.child);
    installPlugin(home());
    writeConfig(model.baseUrl, slack.apiUrl);
    const gateway = await startGateway(home());
    children.push(gateway);
    expect(gateway.out).toContain('slack connected');

    const inChannel = (channel: string) => slack.messages.filter((m) => m.channel === channel);
    await slack.dm('U9', 'who are you?', 'D9');
    await slack.waitFor(() => inChannel('D9').length > 0);
    expect(inChannel('D9')[0]?.text).toMatch(/Your pairing code is \S+/);

    await slack.push({
      type: 'message',
      channel_type: 'channel',
      channel: 'C1',
      user: 'U1',
      text: 'hello everyone, no mention',
      ts: '1700000100.000001',
    });
    await slack.dm('U1', 'hello agent', 'D1');
    await slack.waitFor(() => inChannel('D1').some((m) => m.text === 'Hello from the agent.'));
    expect(inChannel('C1')).toEqual([]);

    await slack.push({
      type: 'app_mention',
      channel: 'C1',
      user: 'U1',
      text: '<@UBOT> long please',
      ts: '1700000200.000001',
    });
    // The split points lose only whitespace (trailing spaces, paragraph breaks).
    const words = (text: string) => text.split(/\s+/).join(' ').trim();
    const done = () =>
      words(
        inChannel('C1')
          .map((m) => m.text)
          .join(' '),
      ) === words(LONG);
    await slack.waitFor(done);
    const parts = inChannel('C1');
    expect(parts.length).toBeGreaterThanOrEqual(3);
    for (const part of parts) {
      expect(part.text.length).toBeLessThanOrEqual(4_000);
      expect(part.threadTs).toBe('1700000200.000001');
    }
    expect(parts.some((part) => part.edits > 0)).toBe(true);

    expect(await gateway.stop()).toBe(0);
    expect(gateway.out).not.toContain(BOT_TOKEN);
    expect(gateway.out).not.toContain(APP_TOKEN);
  });

  it('answers again after a dropped socket; a chat that is gone is marked dead, not retried', async () => {
    requireBuild();
    fake = await FakeSlack.start();
    const slack = fake;
    const model = await startModel(home(), [
      { text: 'Back again.', match: { lastUserIncludes: 'after the drop' } },
      { text: 'Nobody hears this.', match: { lastUserIncludes: 'gone chat' } },
    ]);
    children.push(model.child);
    installPlugin(home());
    writeConfig(model.baseUrl, slack.apiUrl, { stream: false, healthKey: HEALTH_KEY });
    const gateway = await startGateway(home());
    children.push(gateway);
    const [, apiServer] = await gateway.waitFor(/api_server listening on (http:\S+)/);

    slack.drop();
    await slack.waitForConnection(2);
    await slack.dm('U1', 'hello after the drop', 'D1');
    await slack.waitFor(() => slack.messages.some((m) => m.text === 'Back again.'));
    const health = (await (await fetch(`${apiServer}/health`)).json()) as {
      adapters: { platform: string }[];
    };
    expect(health.adapters.find((a) => a.platform === 'slack')).toMatchObject({
      connected: true,
      reconnects: 1,
      lastReconnectReason: 'the socket closed',
    });

    slack.failures.set('chat.postMessage', 'channel_not_found');
    await slack.dm('U1', 'answer to a gone chat', 'D2');
    const posts = () => slack.calls.filter((c) => c.method === 'chat.postMessage');
    await slack.waitFor(() => posts().some((c) => c.params.channel === 'D2'));
    expect(await gateway.stop()).toBe(0);
    expect(posts().filter((c) => c.params.channel === 'D2')).toHaveLength(1);
    const log = readFileSync(join(home(), 'logs', 'gateway.log'), 'utf8');
    expect(log).toContain('socket mode connection lost');
    expect(log).toMatch(/delivery: chat is gone.*code=gateway\.chat_not_found/);
    expect(log).not.toContain(BOT_TOKEN);
  });

  it('in mode: http answers a signed DM end to end and refuses a forged one', async () => {
    requireBuild();
    fake = await FakeSlack.start();
    const slack = fake;
    const model = await startModel(home(), [
      { text: 'Hello over HTTP.', match: { lastUserIncludes: 'hello http' } },
    ]);
    children.push(model.child);
    installPlugin(home());
    writeConfig(model.baseUrl, slack.apiUrl, {
      stream: false,
      slack: ['    mode: http', '    http_port: 0', `    signing_secret: ${SIGNING_SECRET}`],
    });
    const gateway = await startGateway(home());
    children.push(gateway);
    const [, endpoint] = await gateway.waitFor(/slack listening on (http:\S+)/);
    const url = `${endpoint}/slack/events`;

    const dm = (text: string, ts: string) => ({
      type: 'message',
      channel_type: 'im',
      channel: 'D1',
      user: 'U1',
      text,
      ts,
    });
    const forged = await postSigned(url, callback(dm('hello http forged', '1.1')), { secret: 'x' });
    expect(forged.status).toBe(401);
    const signed = await postSigned(url, callback(dm('hello http', '1.2')), {
      secret: SIGNING_SECRET,
    });
    expect(signed.status).toBe(200);
    await slack.waitFor(() => slack.messages.some((m) => m.text === 'Hello over HTTP.'));
    expect(slack.messages.map((m) => m.channel)).toEqual(['D1']);
    expect(slack.calls.some((c) => c.method === 'apps.connections.open')).toBe(false);

    expect(await gateway.stop()).toBe(0);
    await expect(fetch(url, { method: 'POST', body: '{}' })).rejects.toThrow();
    const log = readFileSync(join(home(), 'logs', 'gateway.log'), 'utf8');
    for (const text of [gateway.out, log]) {
      expect(text).not.toContain(SIGNING_SECRET);
      expect(text).not.toContain(BOT_TOKEN);
    }
  });
});
