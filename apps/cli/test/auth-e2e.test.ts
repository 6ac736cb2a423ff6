/**
 * End-to-end `hermes auth list|add|remove|reset` through the built `dist/bin.js` in the test's
 * HERMES_HOME, and `hermes chat -q` reaching the scripted server with keys that live only in
 * auth.json (one, then two rotated on a 401, whose health `auth list` then shows and `reset`
 * clears).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { faults, type ScriptedServer, script, startScriptedServer } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { configureScriptedModel, hermesHome, runHermes, workDir } from './chat-harness.ts';
import { BIN, requireBuild, type SpawnResult } from './spawn-hermes.ts';

const KEY_A = 'sk-auth-e2e-aaaaaaaaaaaa1111';
const KEY_B = 'sk-auth-e2e-bbbbbbbbbbbb2222';
const KEY_ENV = 'sk-auth-e2e-eeeeeeeeeeee9999';
/** No key from the developer's shell may leak into these runs. */
const NO_KEYS = { OPENAI_API_KEY: '', OPENROUTER_API_KEY: '', ANTHROPIC_API_KEY: '' };

let server: ScriptedServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Runs `hermes auth …args` with `input` piped to stdin (then closed). */
function auth(
  args: readonly string[],
  input = '',
  env: Record<string, string> = {},
): Promise<SpawnResult> {
  requireBuild();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'auth', ...args], {
      env: { ...process.env, NO_COLOR: '1', ...NO_KEYS, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

/** The table row of `label` in `auth list` output, spaces collapsed. */
function rowOf(stdout: string, label: string): string {
  const line = stdout.split('\n').find((text) => text.trim().split(/\s+/)[1] === label);
  return (line ?? `(no row for ${label} in:\n${stdout})`).trim().replace(/\s+/g, ' ');
}

describe('hermes auth', () => {
  it('lists nothing with a hint, adds from stdin (0600, key never printed), refuses an empty key', async () => {
    const empty = await auth(['list']);
    expect(empty.code).toBe(0);
    expect(empty.stdout).toContain('No API keys found');
    expect(empty.stdout).toContain('hermes auth add <provider>');

    const added = await auth(['add', 'openai', '--label', 'work'], `${KEY_A}\n`);
    expect(added.code).toBe(0);
    const path = join(hermesHome(), 'auth.json');
    expect(added.stdout).toContain(`as "work" in ${path}`);
    expect(added.stdout + added.stderr).not.toContain(KEY_A);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, 'utf8')).toContain(KEY_A);

    const refused = await auth(['add', 'openai'], '\n');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('no key was given');

    const listed = await auth(['list'], '', { OPENAI_API_KEY: KEY_ENV });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('openai (strategy fill_first)');
    expect(rowOf(listed.stdout, 'OPENAI_API_KEY')).toBe(
      '1 OPENAI_API_KEY sk-…9999 env:OPENAI_API_KEY ok - -',
    );
    expect(rowOf(listed.stdout, 'work')).toBe('2 work sk-…1111 auth.json ok - -');
    expect(listed.stdout).not.toContain(KEY_A);
    expect(listed.stdout).not.toContain(KEY_ENV);
  });

  it('removes auth.json keys by label or index, and refuses an environment key saying where it is', async () => {
    expect((await auth(['add', 'openai'], `${KEY_A}\n`)).code).toBe(0);
    expect((await auth(['add', 'openai'], `${KEY_B}\n`)).code).toBe(0);
    const env = { OPENAI_API_KEY: KEY_ENV };

    const fromEnv = await auth(['remove', 'openai', '1'], '', env);
    expect(fromEnv.code).toBe(1);
    expect(fromEnv.stderr).toContain('comes from the environment variable OPENAI_API_KEY');
    const byName = await auth(['remove', 'openai', 'OPENAI_API_KEY'], '', env);
    expect(byName.code).toBe(1);
    expect(byName.stderr).toContain('not auth.json');

    const byLabel = await auth(['remove', 'openai', 'key1'], '', env);
    expect(byLabel.code).toBe(0);
    expect(byLabel.stdout).toContain('Removed "key1" (sk-…1111)');
    const byIndex = await auth(['remove', 'openai', '2'], '', env);
    expect(byIndex.code).toBe(0);
    expect(byIndex.stdout).toContain('Removed "key2" (sk-…2222)');
    const missing = await auth(['remove', 'openai', 'key9'], '', env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('has no key labelled "key9"');
    expect(JSON.parse(readFileSync(join(hermesHome(), 'auth.json'), 'utf8'))).toEqual({
      version: 1,
      providers: {},
    });
  });

  it('chat -q sends the only key, from auth.json, in the authorization header', async () => {
    server = await startScriptedServer(script().text('Hello from auth.json.'));
    configureScriptedModel(server.url);
    expect((await auth(['add', 'openai', '--label', 'solo'], `${KEY_A}\n`)).code).toBe(0);
    const result = await runHermes(['chat', '-q', 'hi'], workDir(), NO_KEYS);
    expect(result.stderr).not.toContain(KEY_A);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Hello from auth.json.\n');
    expect(server.requests.map((request) => request.headers.authorization)).toEqual([
      `Bearer ${KEY_A}`,
    ]);
    const listed = await auth(['list', 'openai']);
    expect(rowOf(listed.stdout, 'solo')).toBe('1 solo sk-…1111 auth.json ok 1 -');
  });

  it('round_robin from config rotates off a rejected key; list shows its cooldown; reset clears it', async () => {
    server = await startScriptedServer(
      script().fault(faults.unauthorized()).next().text('Second key works.'),
    );
    configureScriptedModel(server.url, 'credential_pool:\n  openai:\n    strategy: round_robin\n');
    expect((await auth(['add', 'openai', '--label', 'first'], `${KEY_A}\n`)).code).toBe(0);
    expect((await auth(['add', 'openai', '--label', 'second'], `${KEY_B}\n`)).code).toBe(0);
    const result = await runHermes(['chat', '-q', 'hi'], workDir(), NO_KEYS);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Second key works.\n');
    expect(server.requests.map((request) => request.headers.authorization)).toEqual([
      `Bearer ${KEY_A}`,
      `Bearer ${KEY_B}`,
    ]);

    const listed = await auth(['list', 'openai']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('openai (strategy round_robin)');
    // A 401 benches a key for five minutes (the pool's auth cooldown).
    expect(rowOf(listed.stdout, 'first')).toMatch(
      /^1 first sk-…1111 auth\.json cooling [45]m\d\ds 1 auth$/,
    );
    expect(rowOf(listed.stdout, 'second')).toBe('2 second sk-…2222 auth.json ok 1 -');

    const reset = await auth(['reset', 'openai']);
    expect(reset.code).toBe(0);
    expect(reset.stdout).toContain('Cleared 1 cooldown or dead mark for openai');
    const after = await auth(['list', 'openai']);
    expect(rowOf(after.stdout, 'first')).toBe('1 first sk-…1111 auth.json ok 1 -');
  });

  it('shows a dead key from the pool state, and a bad strategy fails chat naming the choices', async () => {
    expect((await auth(['add', 'openai', '--label', 'gone'], `${KEY_A}\n`)).code).toBe(0);
    const { fingerprintKey } = await import('@hermes/providers');
    mkdirSync(join(hermesHome(), 'auth'), { recursive: true });
    writeFileSync(
      join(hermesHome(), 'auth', 'credential-pool.json'),
      JSON.stringify({
        version: 1,
        providers: {
          openai: {
            credentials: [
              {
                fingerprint: fingerprintKey(KEY_A),
                label: 'gone',
                source: 'file',
                status: 'dead',
                lastErrorReason: 'auth_permanent',
                useCount: 4,
              },
            ],
          },
        },
      }),
    );
    const listed = await auth(['list']);
    expect(rowOf(listed.stdout, 'gone')).toBe('1 gone sk-…1111 auth.json dead 4 auth_permanent');

    configureScriptedModel(
      'http://127.0.0.1:9',
      'credential_pool:\n  openai:\n    strategy: fastest\n',
    );
    const chat = await runHermes(['chat', '-q', 'hi'], workDir(), NO_KEYS);
    expect(chat.code).not.toBe(0);
    expect(chat.stderr).toContain('credential_pool.openai.strategy');
    expect(chat.stderr).toContain('fill_first, round_robin, random, least_used');
  });
});
