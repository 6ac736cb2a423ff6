/**
 * `hermes-gateway run` as a real process with this plugin enabled, pointed at the fake Discord
 * and at a minimal OpenAI-compatible fake model (both in this test process, on 127.0.0.1): a DM
 * from an allowed user is answered end to end. The plugin is loaded the way a user installs it,
 * as a folder under HERMES_HOME/plugins, so its `dist` is built first.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FakeDiscord } from './fake-discord.js';

const pluginDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const gatewayBin = resolve(pluginDir, '../../apps/gateway/dist/bin.js');
const ANSWER = 'Hello from the agent over Discord.';

/** Answers every chat completion with ANSWER, streamed the way OpenAI streams it. */
async function startFakeModel(): Promise<{ server: Server; url: string; calls: string[] }> {
  const calls: string[] = [];
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += String(chunk);
    calls.push(body);
    const chunk = (delta: object, finish: string | null, extra: object = {}) =>
      `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 0, model: 'fake', choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(chunk({ role: 'assistant', content: ANSWER }, null));
    res.write(
      chunk({}, 'stop', { usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 } }),
    );
    res.end('data: [DONE]\n\n');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, calls };
}

let fake: FakeDiscord;
let model: Awaited<ReturnType<typeof startFakeModel>>;
let child: ChildProcess | undefined;
let output = '';

beforeAll(() => {
  if (!existsSync(gatewayBin)) {
    throw new Error(
      `${gatewayBin} does not exist: run the build first: npx turbo run build --filter=@hermes/gateway-server...`,
    );
  }
  // The gateway loads the built plugin; rebuild only when a source file is newer than the build.
  const built = join(pluginDir, 'dist/index.js');
  const newest = Math.max(
    ...readdirSync(join(pluginDir, 'src')).map((f) => statSync(join(pluginDir, 'src', f)).mtimeMs),
  );
  if (!existsSync(built) || statSync(built).mtimeMs < newest) {
    execFileSync('npx', ['tsup'], { cwd: pluginDir, stdio: 'ignore' });
  }
}, 60_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
  await fake?.close();
  model?.server.close();
});

it('hermes-gateway run answers a Discord DM end to end', async () => {
  fake = await FakeDiscord.start();
  model = await startFakeModel();
  const home = process.env.HERMES_HOME as string;
  mkdirSync(join(home, 'plugins'), { recursive: true });
  symlinkSync(pluginDir, join(home, 'plugins', 'platform-discord'), 'dir');
  writeFileSync(
    join(home, 'config.yaml'),
    [
      'model:',
      '  provider: openai',
      '  default: fake-model',
      `  base_url: ${model.url}`,
      'plugins:',
      '  enabled: [platform-discord]',
      'platforms:',
      '  discord:',
      '    enabled: true',
      `    api_url: ${fake.apiUrl}`,
      "    allowed_users: ['friend-1']",
      '',
    ].join('\n'),
  );
  const identified = fake.waitFor('identify');
  child = spawn(process.execPath, [gatewayBin, 'run'], {
    cwd: home,
    env: {
      ...process.env,
      HERMES_HOME: home,
      OPENAI_API_KEY: 'sk-test-provider-key',
      DISCORD_BOT_TOKEN: fake.token,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (data) => (output += String(data)));
  child.stderr?.on('data', (data) => (output += String(data)));
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`hermes-gateway exited ${code}: ${output}`);
  });
  await Promise.race([identified, exited]);
  fake.dispatchMessage({ channelId: 'dm-friend', userId: 'friend-1', content: 'hello agent' });
  const answered = fake.waitFor('rest', () =>
    fake.messages.some((m) => m.channelId === 'dm-friend' && m.content === ANSWER),
  );
  await Promise.race([answered, exited]);
  expect(model.calls.join('')).toContain('hello agent');
  expect(output).not.toContain(fake.token);
}, 60_000);
