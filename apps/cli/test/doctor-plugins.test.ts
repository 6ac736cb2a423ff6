/** `hermes doctor` reports enabled plugins that did not load, and a strategy nothing provides. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../src/index.ts';
import { capture } from './capture.ts';

const home = () => process.env.HERMES_HOME as string;

async function doctor() {
  const c = capture({ HERMES_HOME: home(), OPENAI_API_KEY: 'sk-test-1234' });
  const code = await main(['doctor', '--offline'], c.io);
  return { code, stdout: c.stdout() };
}

function pluginsLine(output: string): string {
  const lines = output.split('\n');
  const at = lines.findIndex((l) => l.includes(' plugins '));
  return lines.slice(at, at + 4).join('\n');
}

function writePlugin(dir: string, pkg: Record<string, unknown>, entry: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ version: '1.0.0', ...pkg }));
  writeFileSync(join(dir, 'index.mjs'), entry);
}

function config(extra: string): void {
  writeFileSync(
    join(home(), 'config.yaml'),
    `model:\n  provider: openai\n  default: m\n  base_url: http://127.0.0.1:9/v1\n${extra}`,
  );
}

describe('hermes doctor and plugins', () => {
  it('says none are enabled when config enables none', async () => {
    config('');
    expect(pluginsLine((await doctor()).stdout)).toMatch(/✓ plugins\s+none enabled/);
  });

  it('warns about each enabled plugin that did not load, with why and the fix', async () => {
    const plugins = join(home(), 'plugins');
    writePlugin(
      join(plugins, 'crash'),
      { name: 'crash', main: 'index.mjs', hermes: {} },
      "throw new Error('crashed at import');\n",
    );
    writePlugin(
      join(plugins, 'keyed'),
      { name: 'keyed', main: 'index.mjs', hermes: { requiresEnv: ['KEYED_TOKEN'] } },
      'export default {};\n',
    );
    config('plugins:\n  enabled: [crash, keyed]\n');
    const result = await doctor();
    const block = pluginsLine(result.stdout);
    expect(block).toMatch(/! plugins\s+crash: failed — .*crashed at import/);
    expect(block).toMatch(/keyed: missing env — .*KEYED_TOKEN/);
    expect(block).toContain("fix: fix the plugin, or turn it off with 'hermes plugins disable");
    expect(result.code).toBe(0); // a skipped plugin does not stop the agent
  });

  it('fails for a memory.provider no plugin provides, naming the available ones', async () => {
    config('memory:\n  provider: honcho\n');
    const result = await doctor();
    const block = pluginsLine(result.stdout);
    expect(block).toMatch(/✗ plugins\s+memory.provider "honcho" is not available/);
    expect(block).toContain('builtin');
    expect(result.code).toBe(1);
  });
});
