/**
 * End to end: the built `hermes-gateway run`, a real process, with this plugin installed in the
 * test's HERMES_HOME and `platforms.discord` pointed at the fake Discord; the agent answers from
 * the testkit's scripted model (`hermes-testkit serve`, started by path). A stranger gets a
 * pairing code; an allowed user's DM, a message in each of two threads and a file are answered
 * where they were asked; after a dropped socket `/health` shows the reconnect and the next
 * message is answered; the token shows nowhere in the output or the log.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NodeProcess } from '@hermes/plugin-sdk/testing';
import { afterEach, expect, it } from 'vitest';
import { BOT_ID, FakeDiscord } from './fake-discord.js';
import { installPlugin, requireBuild, startGateway, startModel } from './processes.js';

const home = () => process.env.HERMES_HOME as string;
const HEALTH_KEY = 'health-key-0123456789abcdef';
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
const children: NodeProcess[] = [];
let fake: FakeDiscord | undefined;

afterEach(async () => {
  for (const child of children.splice(0)) await child.stop();
  await fake?.close();
  fake = undefined;
});

function writeConfig(baseUrl: string, discord: FakeDiscord): void {
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
      '  enabled: [platform-discord]',
      'platforms:',
      '  api_server:',
      '    enabled: true',
      '    port: 0',
      `    key: ${HEALTH_KEY}`,
      '  discord:',
      '    enabled: true',
      `    token: ${discord.token}`,
      `    api_url: ${discord.apiUrl}`,
      "    allowed_users: ['friend-1']",
      '',
    ].join('\n'),
  );
}

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

it('hermes-gateway run with the discord plugin answers DMs, threads and files, and reports a reconnect', async () => {
  requireBuild();
  const discord = await FakeDiscord.start();
  // A busy process can read an ACK after its next 100 ms beat is due and take the link for a
  // zombie; with a beat every 10 s (Discord's is 41.25 s) only the drop below reconnects.
  discord.heartbeatIntervalMs = 10_000;
  fake = discord;
  const model = await startModel(home(), [
    { text: 'Hello from the agent over Discord.', match: { lastUserIncludes: 'hello agent' } },
    { text: 'Answer in thread A.', match: { lastUserIncludes: 'question in thread A' } },
    { text: 'Answer in thread B.', match: { lastUserIncludes: 'question in thread B' } },
    // Only a request whose user message names the downloaded file gets this answer.
    {
      text: 'I see your chart.',
      match: { lastUserIncludes: '[attached image chart.png (12 bytes), saved at ' },
    },
    { text: 'Back after the drop.', match: { lastUserIncludes: 'after the drop' } },
  ]);
  children.push(model.child);
  installPlugin(home());
  writeConfig(model.baseUrl, discord);
  const identified = discord.waitFor('identify');
  const gateway = await startGateway(home());
  children.push(gateway);
  const [, apiServer] = await gateway.waitFor(/api_server listening on (http:\S+)/);
  await identified;

  const failed = gateway.exited.then((code) => {
    throw new Error(`hermes-gateway exited ${code}: ${gateway.out}`);
  });
  const posted = async (channelId: string, text: string | RegExp) => {
    const seen = () =>
      discord.messages.some(
        (m) =>
          m.channelId === channelId &&
          (typeof text === 'string' ? m.content === text : text.test(m.content)),
      );
    while (!seen()) await Promise.race([discord.waitFor('rest'), failed]);
  };

  discord.dispatchMessage({ channelId: 'dm-stranger', userId: 'stranger-1', content: 'hi?' });
  await posted('dm-stranger', /pairing code is [A-Z0-9]+/);

  discord.dispatchMessage({ channelId: 'dm-friend', userId: 'friend-1', content: 'hello agent' });
  await posted('dm-friend', 'Hello from the agent over Discord.');

  discord.addThread({ id: 'th-a', parentId: 'chan-1' });
  discord.addThread({ id: 'th-b', parentId: 'chan-1', announce: false });
  const ask = (channelId: string, content: string) =>
    discord.dispatchMessage({
      channelId,
      guildId: 'g-1',
      userId: 'friend-1',
      content: `<@${BOT_ID}> ${content}`,
      mentionsBot: true,
    });
  ask('th-a', 'question in thread A');
  ask('th-b', 'question in thread B');
  await posted('th-a', 'Answer in thread A.');
  await posted('th-b', 'Answer in thread B.');
  expect(discord.messages.filter((m) => m.channelId === 'chan-1')).toEqual([]);

  discord.dispatchMessage({
    channelId: 'dm-friend',
    userId: 'friend-1',
    content: 'what is in this?',
    files: [{ filename: 'chart.png', contentType: 'image/png', body: PNG }],
  });
  await posted('dm-friend', 'I see your chart.');
  const saved = filesUnder(join(home(), 'plugin-data')).filter((f) => f.endsWith('chart.png'));
  expect(saved).toHaveLength(1);
  expect(readFileSync(saved[0] as string).equals(PNG)).toBe(true);

  const resumed = discord.waitFor('resume');
  discord.drop();
  await resumed;
  discord.dispatchMessage({
    channelId: 'dm-friend',
    userId: 'friend-1',
    content: 'after the drop',
  });
  await posted('dm-friend', 'Back after the drop.');
  const health = (await (await fetch(`${apiServer}/health`)).json()) as {
    adapters: { platform: string }[];
  };
  const discordHealth = health.adapters.find((a) => a.platform === 'discord');
  expect(discordHealth, gateway.out).toMatchObject({
    connected: true,
    reconnects: 1,
    lastReconnectReason: 'socket closed (code 1006)',
  });

  expect(await gateway.stop()).toBe(0);
  const log = readFileSync(join(home(), 'logs', 'gateway.log'), 'utf8');
  expect(log).toContain('discord gateway link lost');
  for (const text of [gateway.out, log]) expect(text).not.toContain(discord.token);
}, 90_000);
