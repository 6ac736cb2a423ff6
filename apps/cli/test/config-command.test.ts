/** `hermes config …` in-process: set/get/unset, .env for keys, comments kept, refusals, check. */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../src/index.ts';
import { capture } from './capture.ts';

const home = () => process.env.HERMES_HOME as string;

async function hermes(...argv: string[]) {
  const c = capture();
  const code = await main(argv, c.io);
  return { code, stdout: c.stdout(), stderr: c.stderr() };
}

describe('hermes config set/get/unset', () => {
  it('round-trips values with their YAML types and keeps comments', async () => {
    writeFileSync(
      join(home(), 'config.yaml'),
      '# my settings\nagent:\n  max_turns: 10 # keep low\n',
    );
    expect((await hermes('config', 'set', 'agent.max_turns', '25')).code).toBe(0);
    expect((await hermes('config', 'set', 'toolsets', '[terminal, file]')).code).toBe(0);
    expect((await hermes('config', 'set', 'model.default', 'gpt-4o')).code).toBe(0);
    const text = readFileSync(join(home(), 'config.yaml'), 'utf8');
    expect(text).toContain('# my settings');
    expect(text).toContain('max_turns: 25 # keep low');
    expect((await hermes('config', 'get', 'agent.max_turns')).stdout).toBe('25\n');
    expect((await hermes('config', 'get', 'toolsets')).stdout).toBe('- terminal\n- file\n');
    expect((await hermes('config', 'get', 'model.default')).stdout).toBe('gpt-4o\n');
    expect((await hermes('config', 'unset', 'model.default')).stdout).toBe(
      'Removed model.default\n',
    );
    const missing = await hermes('config', 'get', 'model.default');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('model.default is not set');
  });

  it('prints the default of an unset documented key', async () => {
    const result = await hermes('config', 'get', 'agent.max_turns');
    expect(result).toMatchObject({ code: 0, stdout: '90\n' });
    expect(result.stderr).toContain('default');
  });

  it('puts API keys in .env with mode 0600, never in config.yaml, and masks them', async () => {
    const key = 'sk-test-abcdefghijklmnop1234';
    const set = await hermes('config', 'set', 'OPENAI_API_KEY', key);
    expect(set.code).toBe(0);
    expect(set.stdout).not.toContain(key);
    const envPath = join(home(), '.env');
    expect(readFileSync(envPath, 'utf8')).toBe(`OPENAI_API_KEY=${key}\n`);
    expect(statSync(envPath).mode & 0o777).toBe(0o600);
    const got = await hermes('config', 'get', 'OPENAI_API_KEY');
    expect(got.stdout).toBe('sk-…1234\n');
    const shown = await hermes('config', 'show');
    expect(shown.stdout).toContain('OPENAI_API_KEY=sk-…1234');
    expect(shown.stdout).not.toContain(key);
    await hermes('config', 'unset', 'OPENAI_API_KEY');
    expect(readFileSync(envPath, 'utf8')).toBe('');
  });

  it('refuses a secret-named key in config.yaml', async () => {
    const result = await hermes('config', 'set', 'model.api_key', 'sk-xyz');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('would put a secret into config.yaml');
  });

  it('refuses an invalid value, naming the key, line and expected type, and writes nothing', async () => {
    writeFileSync(join(home(), 'config.yaml'), 'agent:\n  max_turns: 10\n');
    const result = await hermes('config', 'set', 'agent.max_turns', 'many');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/agent\.max_turns \(line 2\):.*expected number/);
    expect(readFileSync(join(home(), 'config.yaml'), 'utf8')).toBe('agent:\n  max_turns: 10\n');
  });

  it('rolls back an approvals value the approval loader rejects', async () => {
    const result = await hermes('config', 'set', 'approvals.timeout', '--', '-5');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/approvals\.timeout \(line \d\)/);
  });
});

describe('hermes config show/path/check', () => {
  it('show masks secret-named values written into config.yaml by hand', async () => {
    writeFileSync(join(home(), 'config.yaml'), 'custom:\n  token: abcdefghijklmnopqrstuvwxyz\n');
    const result = await hermes('config', 'show');
    expect(result.stdout).not.toContain('abcdefghijklmnopqrstuvwxyz');
    expect(result.stdout).toContain('# in use: no provider:');
  });

  it('path prints where config.yaml and .env are', async () => {
    expect((await hermes('config', 'path')).stdout).toBe(`${join(home(), 'config.yaml')}\n`);
    expect((await hermes('config', 'path', '--env')).stdout).toBe(`${join(home(), '.env')}\n`);
  });

  it('check reports each problem with its key path and line, unknown keys included', async () => {
    writeFileSync(
      join(home(), 'config.yaml'),
      'model:\n  base_url: not-a-url\nagent:\n  max_turns: 0\n  color: red\n',
    );
    const result = await hermes('config', 'check');
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/model\.base_url \(line 2\): expected an http\(s\) URL/);
    expect(result.stdout).toMatch(/agent\.max_turns \(line 4\)/);
    expect(result.stdout).toContain('  - agent.color (line 5): unknown key\n');
    writeFileSync(join(home(), 'config.yaml'), 'agent:\n  max_turns: 5\n');
    expect(await hermes('config', 'check')).toMatchObject({ code: 0 });
  });

  it('is a usage error without a known subcommand', async () => {
    expect((await hermes('config', 'frob')).code).toBe(2);
    expect((await hermes('config', 'set', 'agent.max_turns')).code).toBe(2);
  });
});
