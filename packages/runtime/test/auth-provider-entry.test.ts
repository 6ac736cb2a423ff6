/**
 * auth.json keys reach the provider entry (after env keys, without twins), and
 * `credential_pool.<provider>.strategy` picks the pool's strategy; a bad strategy fails loading.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addAuthKey, checkConfig, loadHermesConfig, readConfigSource } from '../src/index.ts';

const home = (): string => process.env.HERMES_HOME as string;
const KEY_ENV = 'sk-env-cccccccccccccccc3333';
const KEY_A = 'sk-auth-aaaaaaaaaaaaaaaa1111';

function writeConfig(text: string): void {
  writeFileSync(join(home(), 'config.yaml'), text);
}

const load = (env: Record<string, string> = {}) => loadHermesConfig({ hermesHome: home(), env });

describe('auth.json keys in the provider entry', () => {
  it('a key only in auth.json makes a pool of one, and picks the provider when none is set', async () => {
    addAuthKey(home(), 'openai', KEY_A, 'work');
    const config = await load();
    expect(config.providerName).toBe('openai');
    expect(config.provider?.apiKey).toBeUndefined();
    expect(config.provider?.credentials).toEqual([
      { apiKey: KEY_A, label: 'work', source: 'file', priority: 0 },
    ]);
  });

  it('env keys come first, auth.json twins are dropped, and the strategy is applied', async () => {
    addAuthKey(home(), 'openai', KEY_ENV, 'dup');
    addAuthKey(home(), 'openai', KEY_A, 'work');
    writeConfig(
      'model:\n  provider: openai\ncredential_pool:\n  openai:\n    strategy: round_robin\n',
    );
    const config = await load({ OPENAI_API_KEY: KEY_ENV });
    expect(config.provider?.poolStrategy).toBe('round_robin');
    expect(config.provider?.credentials?.map((key) => [key.label, key.source])).toEqual([
      ['OPENAI_API_KEY', 'env:OPENAI_API_KEY'],
      ['work', 'file'],
    ]);
  });

  it('one env key and no auth.json key stays a plain apiKey', async () => {
    writeConfig('model:\n  provider: openai\n');
    const config = await load({ OPENAI_API_KEY: KEY_ENV });
    expect(config.provider?.apiKey).toBe(KEY_ENV);
    expect(config.provider?.credentials).toBeUndefined();
  });

  it('a fallback provider gets its auth.json keys as its own pool, after its env keys', async () => {
    addAuthKey(home(), 'openrouter', KEY_A, 'stored');
    writeConfig(
      [
        'model:',
        '  provider: openai',
        '  fallback:',
        '    - provider: openrouter',
        '      model: backup-model',
        '    - provider: anthropic',
        '      model: claude-backup',
        'credential_pool:',
        '  openrouter:',
        '    strategy: round_robin',
        '',
      ].join('\n'),
    );
    const config = await load({ OPENAI_API_KEY: KEY_ENV, OPENROUTER_API_KEY: KEY_ENV });
    const [openrouter, anthropic] = config.provider?.fallback ?? [];
    expect(openrouter?.credentials?.map((key) => [key.label, key.source])).toEqual([
      ['OPENROUTER_API_KEY', 'env:OPENROUTER_API_KEY'],
      ['stored', 'file'],
    ]);
    expect(openrouter?.poolStrategy).toBe('round_robin');
    // No stored key: the member reads its variable when it is built, as before.
    expect(anthropic).toEqual({ provider: 'anthropic', model: 'claude-backup' });
  });

  it('the missing-key problem names hermes auth add', async () => {
    writeConfig('model:\n  provider: openai\n');
    const config = await load();
    expect(config.providerProblem).toContain('`hermes auth add openai`');
  });
});

describe('credential_pool section', () => {
  it('accepts each strategy @hermes/providers defines', async () => {
    for (const strategy of ['fill_first', 'round_robin', 'random', 'least_used']) {
      writeConfig(
        `model:\n  provider: openai\ncredential_pool:\n  openai:\n    strategy: ${strategy}\n`,
      );
      const config = await load({ OPENAI_API_KEY: KEY_ENV });
      expect(config.provider?.poolStrategy).toBe(strategy);
    }
  });

  it('a bad strategy fails loading, naming the key and the allowed values', async () => {
    writeConfig('credential_pool:\n  openai:\n    strategy: fastest\n');
    await expect(load({ OPENAI_API_KEY: KEY_ENV })).rejects.toThrow(
      /credential_pool\.openai\.strategy \(line 3\): expected one of fill_first, round_robin, random, least_used/,
    );
  });

  it('an unknown key under a provider fails loading, with the key meant', async () => {
    writeConfig('credential_pool:\n  openai:\n    strategie: random\n');
    const check = checkConfig(readConfigSource(home()), {}, home());
    expect(check.problems).toEqual([
      {
        path: 'credential_pool.openai.strategie',
        line: 3,
        message: "unknown key; did you mean 'credential_pool.openai.strategy'?",
      },
    ]);
    await expect(load()).rejects.toThrow(/credential_pool\.openai\.strategie/);
  });
});
