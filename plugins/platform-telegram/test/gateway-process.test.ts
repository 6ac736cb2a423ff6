/**
 * End to end: the built `hermes-gateway run` as a real process, with this plugin — bundled with
 * the gateway, so only `plugins.enabled` names it — pointed at the fake Bot API, agents answered by a fake model. One
 * process serves the whole scenario: an allowed user's DM is answered, a stranger gets a pairing
 * code, a group message is answered only when it mentions or replies to the bot.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeBotApi } from './fake-bot-api.ts';
import { type FakeModel, startFakeModel } from './fake-model.ts';
import { TOKEN } from './support.ts';

const PLUGIN_DIR = fileURLToPath(new URL('..', import.meta.url));
const BIN = fileURLToPath(new URL('../../../apps/gateway/dist/bin.js', import.meta.url));
const BUILD = 'cd plugins/platform-telegram && npx tsup (and apps/gateway: npx tsup)';

const stoppers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stoppers.splice(0).reverse()) await stop();
});

/** Spawns the gateway; `stop()` sends SIGTERM and resolves with its exit code and output. */
function spawnGateway(home: string, env: Record<string, string>) {
  for (const file of [BIN, join(PLUGIN_DIR, 'dist', 'index.js')]) {
    if (!existsSync(file)) throw new Error(`${file} does not exist: build first: ${BUILD}`);
  }
  const child: ChildProcess = spawn(process.execPath, [BIN, 'run'], {
    env: { ...process.env, HERMES_HOME: home, OPENAI_API_KEY: 'sk-fake-provider', ...env },
    cwd: home,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  child.stdout?.setEncoding('utf8').on('data', (c: string) => {
    out.stdout += c;
  });
  child.stderr?.setEncoding('utf8').on('data', (c: string) => {
    out.stderr += c;
  });
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => resolve(code)),
  );
  const killer = setTimeout(() => child.kill('SIGKILL'), 90_000);
  return {
    out,
    exited,
    async stop(): Promise<number | null> {
      child.kill('SIGTERM');
      const code = await exited;
      clearTimeout(killer);
      return code;
    },
  };
}

describe('hermes-gateway run with platform-telegram', { timeout: 60_000 }, () => {
  it('answers an allowed DM, pairs a stranger, and gates group messages on mention or reply', async () => {
    const home = process.env.HERMES_HOME as string;
    const api = await new FakeBotApi(TOKEN).start();
    const model: FakeModel = await startFakeModel((text) => `Echo: ${text}.`);
    stoppers.push(
      () => api.close(),
      () => model.close(),
    );
    writeFileSync(
      join(home, 'config.yaml'),
      [
        'model:\n  provider: openai\n  default: fake-model',
        `  base_url: ${model.baseUrl}`,
        'plugins:\n  enabled: [platform-telegram]',
        'platforms:\n  telegram:\n    enabled: true',
        `    api_root: ${api.url}`,
        "    allowed_users: ['7']",
        '    poll_timeout_seconds: 2',
        '',
      ].join('\n'),
    );
    const gateway = spawnGateway(home, { TELEGRAM_BOT_TOKEN: TOKEN });
    stoppers.push(async () => void (await gateway.stop()));
    await api.waitForCall((c) => c.method === 'getUpdates');

    // An allowed user's DM reaches the agent and the answer comes back to the chat.
    api.push({ chatId: 7, userId: 7, text: 'hello from my phone' });
    const [dm] = await api.waitForSent('7', (sent) => sent.some((s) => s.text.includes('Echo')));
    expect(dm?.text).toBe('Echo: hello from my phone\\.');
    expect(model.requests).toEqual(['hello from my phone']);

    // A stranger gets a pairing code, and the model is not called.
    api.push({ chatId: 8, userId: 8, text: 'who are you?' });
    const [pairing] = await api.waitForSent('8', (sent) => sent.length > 0);
    expect(pairing?.text).toMatch(/[A-HJ-NP-Z2-9]{8}/);
    expect(model.requests).toHaveLength(1);

    // In a group: no mention, no answer; a mention or a reply to the bot is answered.
    api.push({ chatId: -100, userId: 7, text: 'just chatting', chatType: 'supergroup' });
    api.push({
      chatId: -100,
      userId: 7,
      text: '@hermes_test_bot what time is it',
      chatType: 'supergroup',
    });
    await api.waitForSent('-100', (sent) => sent.length >= 1);
    // (the reply waits for the first answer: sent during a turn it would steer that turn)
    api.push({
      chatId: -100,
      userId: 7,
      text: 'and now?',
      chatType: 'supergroup',
      replyToBot: true,
    });
    const group = await api.waitForSent('-100', (sent) => sent.length >= 2);
    expect(group.map((s) => s.text)).toEqual(['Echo: what time is it\\.', 'Echo: and now?\\.']);
    expect(model.requests).not.toContain('just chatting');

    expect(await gateway.stop()).toBe(0);
    const log = existsSync(join(home, 'logs', 'gateway.log'))
      ? readFileSync(join(home, 'logs', 'gateway.log'), 'utf8')
      : '';
    for (const text of [gateway.out.stdout, gateway.out.stderr, log]) {
      expect(text).not.toContain('SECRET-test-token');
    }
    expect(gateway.out.stdout).toContain('telegram connected');
  });
});
