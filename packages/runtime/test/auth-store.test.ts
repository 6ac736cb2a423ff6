/**
 * auth.json (`hermes auth add|remove`): validation, 0600 atomic writes, labels, duplicates; the
 * key listing (`hermes auth list`) and the pool health reset (`hermes auth reset`).
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { isHermesError } from '@hermes/protocol';
import { fingerprintKey, JsonFileCredentialStore } from '@hermes/providers';
import { describe, expect, it } from 'vitest';
import {
  AUTH_FILE_INVALID_CODE,
  AUTH_KEY_REJECTED_CODE,
  addAuthKey,
  authFilePath,
  formatTimeLeft,
  maskKey,
  poolStatePath,
  readAuthFile,
  removeAuthKey,
  reportProviderKeys,
  resetPoolHealth,
} from '../src/index.ts';

const home = (): string => process.env.HERMES_HOME as string;
const KEY_A = 'sk-auth-aaaaaaaaaaaaaaaa1111';
const KEY_B = 'sk-auth-bbbbbbbbbbbbbbbb2222';

function errorCode(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return isHermesError(error) ? error.code : 'not-a-hermes-error';
  }
  return undefined;
}

describe('auth.json store', () => {
  it('adds keys with default and given labels, 0600, atomically, and removes them', () => {
    const first = addAuthKey(home(), 'openai', `  ${KEY_A}\n`, undefined, () => new Date(0));
    expect(first).toEqual({ provider: 'openai', label: 'key1', count: 1 });
    expect(addAuthKey(home(), 'openai', KEY_B, 'work').label).toBe('work');
    const path = authFilePath(home());
    expect(statSync(path).mode & 0o777).toBe(0o600);
    // No temporary file is left behind.
    expect(readdirSync(home()).filter((name) => name.includes('.tmp'))).toEqual([]);
    const file = readAuthFile(home());
    expect(file.providers.openai?.map((k) => [k.label, k.apiKey])).toEqual([
      ['key1', KEY_A],
      ['work', KEY_B],
    ]);
    expect(file.providers.openai?.[0]?.addedAt).toBe('1970-01-01T00:00:00.000Z');
    expect(removeAuthKey(home(), 'openai', 'key1')).toBe('key1');
    expect(removeAuthKey(home(), 'openai', 'key1')).toBeUndefined();
    expect(removeAuthKey(home(), 'openai', 'work')).toBe('work');
    expect(readAuthFile(home()).providers).toEqual({});
  });

  it('refuses an empty key, a duplicate key, a taken label and an all-digit label', () => {
    expect(errorCode(() => addAuthKey(home(), 'openai', '   '))).toBe(AUTH_KEY_REJECTED_CODE);
    addAuthKey(home(), 'openai', KEY_A, 'main');
    let message = '';
    try {
      addAuthKey(home(), 'openai', KEY_A);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('already stored for openai as "main"');
    expect(message).not.toContain(KEY_A);
    expect(errorCode(() => addAuthKey(home(), 'openai', KEY_B, 'main'))).toBe(
      AUTH_KEY_REJECTED_CODE,
    );
    expect(errorCode(() => addAuthKey(home(), 'openai', KEY_B, '2'))).toBe(AUTH_KEY_REJECTED_CODE);
    expect(errorCode(() => addAuthKey(home(), 'open ai', KEY_B))).toBe(AUTH_KEY_REJECTED_CODE);
    // The same key for another provider is fine.
    expect(addAuthKey(home(), 'openrouter', KEY_A).label).toBe('key1');
  });

  it('rejects a broken file naming the file and the key path, never the content', () => {
    writeFileSync(authFilePath(home()), `{"version":1,"providers":{"openai":[{"label":"x"}]}}`);
    expect(errorCode(() => readAuthFile(home()))).toBe(AUTH_FILE_INVALID_CODE);
    writeFileSync(authFilePath(home()), `{"version":1, ${KEY_A}`);
    let message = '';
    try {
      readAuthFile(home());
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain(authFilePath(home()));
    expect(message).toContain('not valid JSON');
    expect(message).not.toContain(KEY_A.slice(8));
  });
});

describe('key report and reset', () => {
  function saveHealth(): void {
    new JsonFileCredentialStore({ path: poolStatePath(home()) }).save('openai', {
      credentials: [
        {
          fingerprint: fingerprintKey(KEY_A),
          label: 'OPENAI_API_KEY',
          source: 'env:OPENAI_API_KEY',
          status: 'exhausted',
          cooldownUntil: 1_000_000 + 252_000,
          lastErrorReason: 'rate_limit',
          useCount: 7,
        },
        {
          fingerprint: fingerprintKey(KEY_B),
          label: 'work',
          source: 'file',
          status: 'dead',
          lastErrorReason: 'auth_permanent',
          useCount: 2,
        },
      ],
    });
  }

  it('lists env keys, then auth.json keys, masked, with saved health; twins once', () => {
    addAuthKey(home(), 'openai', KEY_B, 'work');
    addAuthKey(home(), 'openai', KEY_A, 'again'); // also in the environment: listed once
    saveHealth();
    const [report, ...others] = reportProviderKeys({
      hermesHome: home(),
      env: { OPENAI_API_KEY: KEY_A },
      config: { credential_pool: { openai: { strategy: 'round_robin' } } },
      auth: readAuthFile(home()),
      now: 1_000_000,
    });
    expect(others).toEqual([]);
    expect(report?.provider).toBe('openai');
    expect(report?.strategy).toBe('round_robin');
    expect(report?.keys).toEqual([
      expect.objectContaining({
        index: 1,
        label: 'OPENAI_API_KEY',
        masked: 'sk-…1111',
        source: 'env:OPENAI_API_KEY',
        state: { kind: 'cooling', cooldownMs: 252_000 },
        requests: 7,
        lastError: 'rate_limit',
      }),
      expect.objectContaining({
        index: 2,
        label: 'work',
        masked: 'sk-…2222',
        source: 'auth.json',
        state: { kind: 'dead' },
        requests: 2,
      }),
    ]);
    expect(JSON.stringify(report)).not.toContain(KEY_A);
    expect(formatTimeLeft(252_000)).toBe('4m12s');
  });

  it('reset clears cooldowns and dead marks, keeping counts and keys', () => {
    addAuthKey(home(), 'openai', KEY_B, 'work');
    saveHealth();
    expect(resetPoolHealth(poolStatePath(home()), 'anthropic').revived).toBe(0);
    expect(resetPoolHealth(poolStatePath(home())).revived).toBe(2);
    const saved = JSON.parse(readFileSync(poolStatePath(home()), 'utf8'));
    expect(saved.providers.openai.credentials).toEqual([
      expect.objectContaining({ status: 'ok', useCount: 7 }),
      expect.objectContaining({ status: 'ok', useCount: 2 }),
    ]);
    expect(JSON.stringify(saved)).not.toMatch(/cooldownUntil|lastErrorReason/);
    expect(readAuthFile(home()).providers.openai).toHaveLength(1);
  });

  it('masks short keys completely and long ones to the last four', () => {
    expect(maskKey('short-key')).toBe('…');
    expect(maskKey('AIzaSyabcdefghijklmnop')).toBe('…mnop');
  });
});
