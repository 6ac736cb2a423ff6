/** `hermes doctor`: each check passing and failing on real files, a real database and real HTTP. */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addAuthKey } from '@hermes/runtime';
import { script, startScriptedServer } from '@hermes/testkit';
import { describe, expect, it } from 'vitest';
import { checkNode } from '../src/commands/doctor/local-checks.ts';
import { main } from '../src/index.ts';
import { capture } from './capture.ts';
import { writeSessions } from './sessions-fixture.ts';

const home = () => process.env.HERMES_HOME as string;

async function doctor(argv: string[] = [], env?: Record<string, string | undefined>) {
  const c = capture(env);
  const code = await main(['doctor', ...argv], c.io);
  return { code, stdout: c.stdout(), stderr: c.stderr() };
}

function line(output: string, name: string): string {
  return output.split('\n').find((l) => l.includes(` ${name} `)) ?? '';
}

describe('hermes doctor', () => {
  it('passes with a configured local server that answers, and a healthy database', async () => {
    const server = await startScriptedServer(script().models('m1'));
    try {
      writeFileSync(
        join(home(), 'config.yaml'),
        `model:\n  provider: custom\n  default: m1\n  base_url: ${server.baseUrl('openai-chat')}\n`,
      );
      await writeSessions(home());
      const result = await doctor();
      expect(result.stdout).toContain('All checks passed');
      expect(result.code).toBe(0);
      expect(line(result.stdout, 'state.db')).toContain('passes the integrity check');
      expect(line(result.stdout, 'reachable')).toContain('✓');
    } finally {
      await server.close();
    }
  });

  it('names the key path and line of a broken config.yaml, with the fix, and exits 1', async () => {
    writeFileSync(
      join(home(), 'config.yaml'),
      'model:\n  provider: openai\nagent:\n  max_turns: "ninety"\n',
    );
    const result = await doctor(['--offline']);
    expect(result.code).toBe(1);
    expect(line(result.stdout, 'config.yaml')).toMatch(
      /✗ config\.yaml\s+agent\.max_turns \(line 4\):.*expected number/,
    );
    expect(result.stdout).toMatch(/fix: edit .*config\.yaml, then run `hermes config check`/);
    expect(line(result.stdout, 'provider')).toContain('not checked');
  });

  it('reports a missing key with `hermes setup` as the fix, and skips the network with --offline', async () => {
    writeFileSync(join(home(), 'config.yaml'), 'model:\n  provider: openai\n');
    const result = await doctor(['--offline'], { HERMES_HOME: home() });
    expect(result.code).toBe(1);
    expect(line(result.stdout, 'provider')).toContain('No API key for openai');
    expect(result.stdout).toContain('fix: run `hermes setup`');
    expect(line(result.stdout, 'reachable')).toContain('skipped');
  });

  it('says where each key comes from, for the primary and every fallback, and warns of a keyless fallback', async () => {
    addAuthKey(home(), 'openai', 'sk-stored-openai-000000001', 'work');
    addAuthKey(home(), 'openrouter', 'sk-stored-router-000000002', 'router');
    writeFileSync(
      join(home(), 'config.yaml'),
      [
        'model:',
        '  provider: openai',
        '  default: gpt-main',
        '  fallback:',
        '    - provider: openrouter',
        '      model: backup-one',
        '    - provider: anthropic',
        '      model: backup-two',
        '',
      ].join('\n'),
    );
    const result = await doctor(['--offline'], {
      HERMES_HOME: home(),
      OPENAI_API_KEY: 'sk-env-openai-000000000003',
    });
    expect(line(result.stdout, 'provider')).toContain(
      'openai / gpt-main; 2 keys (a pool: 1 from the environment, 1 from auth.json)',
    );
    expect(line(result.stdout, 'fallback')).toMatch(
      /! fallback\s+openrouter \/ backup-one: 1 key \(a pool: 1 from auth\.json\)$/,
    );
    expect(result.stdout).toMatch(/^\s+anthropic \/ backup-two: no key$/m);
    expect(result.stdout).toContain(
      'fix: set ANTHROPIC_API_KEY or run `hermes auth add anthropic`',
    );
    expect(result.stdout + result.stderr).not.toMatch(/sk-(stored|env)-/);
    // A warning, not a failure: the primary works.
    expect(result.code).toBe(0);
  });

  it('reports a corrupt state.db with how to recover', async () => {
    writeFileSync(join(home(), 'state.db'), 'this is not a database at all, just text '.repeat(50));
    const result = await doctor(['--offline']);
    expect(result.code).toBe(1);
    expect(line(result.stdout, 'state.db')).toContain('✗');
    expect(result.stdout).toMatch(/fix: move it aside \(mv .*state\.db .*state\.db\.broken\)/);
  });

  it('reports a missing or unwritable HERMES_HOME and a world-readable .env', async () => {
    const missing = await doctor(['--offline'], { HERMES_HOME: join(home(), 'nope') });
    expect(line(missing.stdout, 'HERMES_HOME')).toContain('does not exist');
    writeFileSync(join(home(), '.env'), 'OPENAI_API_KEY=sk-abc\n');
    chmodSync(join(home(), '.env'), 0o644);
    const loose = await doctor(['--offline'], { HERMES_HOME: home() });
    expect(loose.stdout).toContain(`fix: chmod 600 ${join(home(), '.env')}`);
    if (process.getuid?.() !== 0) {
      const locked = join(home(), 'locked');
      mkdirSync(locked);
      chmodSync(locked, 0o500);
      const result = await doctor(['--offline'], { HERMES_HOME: locked });
      expect(line(result.stdout, 'HERMES_HOME')).toContain('not writable');
      chmodSync(locked, 0o700);
    }
  });

  it('fails the reachability check for a server that is not there', async () => {
    const server = await startScriptedServer(script());
    const url = server.baseUrl('openai-chat');
    await server.close();
    writeFileSync(
      join(home(), 'config.yaml'),
      `model:\n  provider: custom\n  default: m\n  base_url: ${url}\n`,
    );
    const result = await doctor(['--json']);
    const report = JSON.parse(result.stdout) as {
      ok: boolean;
      checks: Array<{ name: string; status: string; detail: string }>;
    };
    expect(result.code).toBe(1);
    expect(report.ok).toBe(false);
    expect(report.checks.find((c) => c.name === 'reachable')).toMatchObject({ status: 'fail' });
  });

  it('checks the Node.js version against 20.11', () => {
    expect(checkNode('20.11.0').status).toBe('ok');
    expect(checkNode('22.1.0').status).toBe('ok');
    expect(checkNode('20.10.9')).toMatchObject({
      status: 'fail',
      detail: 'v20.10.9 (needs ≥ 20.11)',
    });
    expect(checkNode('18.19.0').status).toBe('fail');
  });
});
