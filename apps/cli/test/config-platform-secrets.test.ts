/**
 * `hermes config` never prints a platform credential: `platforms.<name>.key` / `token` /
 * `secret` and `API_SERVER_KEY` are masked by `show` and `get`, refused by `set`, and kept out
 * of `check`'s warnings and errors.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../src/index.ts';
import { capture } from './capture.ts';

const home = () => process.env.HERMES_HOME as string;
const KEY = 'api-server-key-0123456789-abcdef';
const TOKEN = 'bot-token-9876543210-zyxwvu';

async function hermes(...argv: string[]) {
  const c = capture();
  const code = await main(argv, c.io);
  return { code, stdout: c.stdout(), stderr: c.stderr(), all: c.stdout() + c.stderr() };
}

function writeConfig(text: string): void {
  writeFileSync(join(home(), 'config.yaml'), text);
}

describe('platform secrets in hermes config', () => {
  it('show masks platforms.*.key and .token and the API_SERVER_KEY line of .env', async () => {
    writeConfig(
      `platforms:\n  api_server:\n    enabled: true\n    key: ${KEY}\n  telegram:\n    token: ${TOKEN}\n`,
    );
    writeFileSync(join(home(), '.env'), `API_SERVER_KEY=${KEY}\n`);
    const shown = await hermes('config', 'show');
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('enabled: true');
    expect(shown.stdout).toContain('key: ');
    expect(shown.stdout).toContain('API_SERVER_KEY=');
    expect(shown.all).not.toContain(KEY);
    expect(shown.all).not.toContain(TOKEN);
  });

  it('get masks the key itself, and inside the section it belongs to', async () => {
    writeConfig(`platforms:\n  api_server:\n    port: 9000\n    key: ${KEY}\n`);
    writeFileSync(join(home(), '.env'), `API_SERVER_KEY=${KEY}\n`);
    const one = await hermes('config', 'get', 'platforms.api_server.key');
    expect(one.code).toBe(0);
    expect(one.stdout.trim()).not.toBe('');
    const section = await hermes('config', 'get', 'platforms');
    expect(section.stdout).toContain('port: 9000');
    const fromEnv = await hermes('config', 'get', 'API_SERVER_KEY');
    expect(fromEnv.code).toBe(0);
    for (const result of [one, section, fromEnv]) expect(result.all).not.toContain(KEY);
  });

  it('set refuses a platform key in config.yaml and points to API_SERVER_KEY', async () => {
    writeConfig('platforms:\n  api_server:\n    enabled: true\n');
    const result = await hermes('config', 'set', 'platforms.api_server.key', KEY);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('would put a secret into config.yaml');
    expect(result.stderr).toContain('API_SERVER_KEY');
    expect(result.all).not.toContain(KEY);
    expect(readFileSync(join(home(), 'config.yaml'), 'utf8')).not.toContain(KEY);
  });

  it('set refuses a section value that carries a key, without printing it', async () => {
    const result = await hermes(
      'config',
      'set',
      'platforms.api_server',
      `{enabled: true, key: ${KEY}}`,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('platforms.api_server.key would put a secret into config.yaml');
    expect(result.all).not.toContain(KEY);
    const nested = await hermes('config', 'set', 'platforms', `{telegram: {token: ${TOKEN}}}`);
    expect(nested.code).toBe(1);
    expect(nested.all).not.toContain(TOKEN);
  });

  it('check reports a bad entry and a bad API_SERVER_PORT without printing the key', async () => {
    writeConfig(`platforms:\n  api_server:\n    enabled: maybe\n    key: ${KEY}\n`);
    const result = await hermes('config', 'check');
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/platforms\.api_server\.enabled \(line 3\)/);
    expect(result.all).not.toContain(KEY);
    writeConfig('platforms:\n  api_server:\n    enabled: true\n');
    const c = capture();
    const code = await main(['config', 'check'], {
      ...c.io,
      env: { ...process.env, API_SERVER_PORT: '70000', API_SERVER_KEY: KEY },
    });
    expect(code).toBe(1);
    expect(c.stdout()).toContain('API_SERVER_PORT');
    expect(c.stdout() + c.stderr()).not.toContain(KEY);
  });
});
