/**
 * `hermes tools list`: the core tools by toolset, with availability and enablement. A tool is
 * available only when it can actually run with the configuration: web_search with a usable
 * `web:` backend, execute_code on the local terminal backend, vision_analyze with a model.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../src/index.ts';
import { capture } from './capture.ts';

interface Row {
  name: string;
  toolset: string;
  available: boolean;
  enabled: boolean;
  reason?: string;
}

const KEY = 'bsk-tools-listing-secret';

function writeConfig(text: string): void {
  writeFileSync(join(process.env.HERMES_HOME as string, 'config.yaml'), text);
}

async function rowsWith(env?: Record<string, string | undefined>): Promise<Map<string, Row>> {
  const c = capture(env ? { ...process.env, ...env } : undefined);
  expect(await main(['tools', 'list', '--json'], c.io)).toBe(0);
  expect(c.stdout()).not.toContain(KEY);
  return new Map((JSON.parse(c.stdout()) as Row[]).map((row) => [row.name, row]));
}

async function list(...extra: string[]) {
  const c = capture();
  const code = await main(['tools', 'list', ...extra], c.io);
  return { code, stdout: c.stdout(), stderr: c.stderr() };
}

describe('hermes tools list', () => {
  it('groups tools by toolset and marks availability', async () => {
    const result = await list();
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^terminal:$/m);
    expect(result.stdout).toMatch(/✓ terminal/);
    expect(result.stdout).toMatch(/✗ web_search\s+\(/);
  });

  it('reflects toolsets and disabled_toolsets from config.yaml', async () => {
    writeFileSync(
      join(process.env.HERMES_HOME as string, 'config.yaml'),
      'toolsets: [hermes-cli]\ndisabled_toolsets: [terminal]\n',
    );
    const rows = JSON.parse((await list('--json')).stdout) as Row[];
    const terminal = rows.find((row) => row.name === 'terminal');
    const readFile = rows.find((row) => row.name === 'read_file');
    expect(terminal).toMatchObject({ toolset: 'terminal', available: true, enabled: false });
    expect(readFile).toMatchObject({ toolset: 'file', enabled: true });
    expect(rows.some((row) => row.name === 'memory')).toBe(true);
  });

  it('web_search: unavailable until web.search_backend is set, and says so', async () => {
    const result = await list();
    expect(result.stdout).toMatch(
      /✗ web_search\s+\(set web\.search_backend \(searxng, brave or tavily\)\)/,
    );
    writeConfig('web:\n  search_backend: searxng\n  searxng_url: http://127.0.0.1:8888\n');
    expect((await rowsWith()).get('web_search')).toMatchObject({ available: true });
  });

  it('web_search with brave: unavailable without the key (naming the variable), available with it', async () => {
    writeConfig('web:\n  search_backend: brave\n');
    const without = (await rowsWith({ BRAVE_API_KEY: '' })).get('web_search');
    expect(without).toMatchObject({
      available: false,
      reason: 'web.search_backend is brave: set BRAVE_API_KEY (in the environment or .env)',
    });
    const withKey = (await rowsWith({ BRAVE_API_KEY: KEY })).get('web_search');
    expect(withKey).toMatchObject({ available: true });
    expect(withKey?.reason).toBeUndefined();
  });

  it('execute_code is available on the local backend and not on another', async () => {
    expect((await rowsWith()).get('execute_code')).toMatchObject({
      available: true,
      enabled: true,
    });
    writeConfig('terminal:\n  backend: docker\n');
    expect((await rowsWith()).get('execute_code')).toMatchObject({
      available: false,
      reason: 'runs only with terminal.backend local (not docker)',
    });
  });

  it('vision_analyze is available once a model is configured (the vision slot), and says what is missing', async () => {
    const none = { OPENAI_API_KEY: '', OPENROUTER_API_KEY: '', ANTHROPIC_API_KEY: '' };
    expect((await rowsWith(none)).get('vision_analyze')).toMatchObject({
      available: false,
      reason: 'needs a model (run `hermes setup`)',
    });
    writeConfig('model:\n  provider: openai\n  default: gpt-4o\n');
    expect(
      (await rowsWith({ ...none, OPENAI_API_KEY: 'sk-test-vision' })).get('vision_analyze'),
    ).toMatchObject({
      available: true,
    });
  });
});
