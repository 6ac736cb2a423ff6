/**
 * `hermes auth` in process: argument mistakes, hints, a bad label, a broken auth.json or
 * config.yaml. The end-to-end runs through the built binary are in auth-e2e.test.ts.
 */

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fingerprintKey, JsonFileCredentialStore } from '@hermes/providers';
import { describe, expect, it } from 'vitest';
import { run } from '../src/commands/auth.ts';
import { main } from '../src/index.ts';
import { capture } from './capture.ts';

const home = () => process.env.HERMES_HOME as string;
const KEY = 'sk-auth-unit-aaaaaaaaaaaa4321';

async function auth(
  argv: string[],
  input = '',
  env: Record<string, string> = {},
  hermesHome = home(),
) {
  const c = capture();
  const code = await run(argv, {
    ...c.io,
    env: { HERMES_HOME: home(), ...env },
    hermesHome,
    stdin: Readable.from([input]),
  });
  return { code, stdout: c.stdout(), stderr: c.stderr() };
}

describe('hermes auth (in process)', () => {
  it('is in the help and says how to use it on a mistake', async () => {
    const c = capture({ HERMES_HOME: home() });
    expect(await main(['--help'], c.io)).toBe(0);
    expect(c.stdout()).toContain('auth list|add|remove|reset');
    expect((await auth(['add'])).code).toBe(2);
    expect((await auth(['remove', 'openai'])).stderr).toContain("'remove' needs a provider");
    expect((await auth(['frobnicate'])).stderr).toContain("unknown subcommand 'frobnicate'");
    expect((await auth(['--help'])).stdout).toContain('credential_pool.<provider>.strategy');
  });

  it('lists a named provider without keys with the variables and the add command', async () => {
    const result = await auth(['list', 'anthropic']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      'anthropic (strategy fill_first)\n  no keys: set ANTHROPIC_API_KEY, or run `hermes auth add anthropic`\n',
    );
  });

  it('adds from a stream with a label, refuses a bad label, never echoes the key', async () => {
    const added = await auth(['add', 'openrouter', '--label', 'team'], `${KEY}\n`);
    expect(added.code).toBe(0);
    expect(added.stderr).toBe('API key for openrouter (not shown): ');
    expect(added.stdout).toContain('as "team"');
    const bad = await auth(['add', 'openrouter', '--label', '42'], 'sk-other-bbbbbbbbbbbbbbbb\n');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('must not be all digits');
    const listed = await auth(['list']);
    expect(listed.stdout).toContain('openrouter (strategy fill_first)');
    expect(listed.stdout).toMatch(/1 {2}team +sk-…4321 +auth\.json/);
    expect(`${added.stdout}${added.stderr}${listed.stdout}`).not.toContain(KEY);
  });

  it('a broken auth.json is an error naming the file; a broken config.yaml only a warning', async () => {
    writeFileSync(join(home(), 'config.yaml'), 'agent:\n  max_turns: lots\n');
    const warned = await auth(['list'], '', { OPENAI_API_KEY: KEY });
    expect(warned.code).toBe(0);
    expect(warned.stderr).toContain('config.yaml has errors');
    expect(warned.stdout).toContain('env:OPENAI_API_KEY');
    writeFileSync(join(home(), 'auth.json'), `{"version": 2}`);
    const broken = await auth(['list']);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain(`${join(home(), 'auth.json')} cannot be used`);
  });

  it('a profile keeps its own auth.json, and sees the health the pools keep under HERMES_HOME', async () => {
    const profile = join(home(), 'profiles', 'work');
    mkdirSync(profile, { recursive: true });
    expect((await auth(['add', 'openai', '--label', 'p1'], `${KEY}\n`, {}, profile)).code).toBe(0);
    const state = new JsonFileCredentialStore({ env: { HERMES_HOME: home() } });
    const saved = { fingerprint: fingerprintKey(KEY), label: 'p1', source: 'file' } as const;
    state.save('openai', {
      credentials: [{ ...saved, status: 'dead', lastErrorReason: 'auth_permanent', useCount: 3 }],
    });
    const listed = await auth(['list', 'openai'], '', {}, profile);
    expect(listed.stdout).toMatch(/1 {2}p1 +sk-…4321 +auth\.json +dead +3 +auth_permanent/);
    expect((await auth(['list'])).stdout).toContain('No API keys found');
    expect((await auth(['reset'], '', {}, profile)).stdout).toContain('Cleared 1 cooldown');
    expect(state.load('openai')?.credentials[0]?.status).toBe('ok');
  });
});
