/**
 * loadHermesConfig (moved here with the loader from apps/cli): validation with key paths and
 * lines, .env, ${VAR}, precedence, providers.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createProvider } from '@hermes/providers';
import { describe, expect, it } from 'vitest';
import { loadHermesConfig, PLACEHOLDER_API_KEY, parseEnvText } from '../src/index.ts';

function home(): string {
  return process.env.HERMES_HOME as string;
}

function writeConfig(text: string, dir = home()): void {
  writeFileSync(join(dir, 'config.yaml'), text);
}

const load = (env: Record<string, string | undefined> = {}, flags = {}, dir = home()) =>
  loadHermesConfig({ hermesHome: dir, env }, flags);

describe('.env parsing', () => {
  it('reads comments, export, quotes, escapes and inline comments', () => {
    const parsed = parseEnvText(
      [
        '# a comment',
        '',
        'export A=1',
        'B = "two words" # note',
        "C='lit\\n$X'",
        'D="line\\nbreak"',
        'E=bare value # comment',
        'F=',
        'not a line',
        'G="unterminated',
      ].join('\n'),
    );
    expect(parsed.values).toEqual({
      A: '1',
      B: 'two words',
      C: 'lit\\n$X',
      D: 'line\nbreak',
      E: 'bare value',
      F: '',
    });
    expect(parsed.problems.map((p) => p.line)).toEqual([9, 10]);
  });
});

describe('loadHermesConfig', () => {
  it('with nothing configured has no provider and one line naming hermes setup', async () => {
    const config = await load();
    expect(config.provider).toBeUndefined();
    expect(config.providerProblem).toContain('hermes setup');
    expect(config.providerProblem).not.toContain('\n');
    expect(config.maxTurns).toBe(90);
  });

  it('names the missing key variable when a provider is configured without one', async () => {
    writeConfig('model:\n  provider: openai\n  default: gpt-4o\n');
    const config = await load();
    expect(config.provider).toBeUndefined();
    expect(config.providerProblem).toMatch(
      /No API key for openai \(set OPENAI_API_KEY\).*hermes setup/,
    );
  });

  it('reads the key from .env and returns an entry createProvider accepts', async () => {
    writeConfig('model:\n  provider: openai\n  default: gpt-4o\n');
    writeFileSync(join(home(), '.env'), 'OPENAI_API_KEY=sk-test-from-dotenv-123456\n');
    const config = await load();
    expect(config.provider).toMatchObject({
      provider: 'openai',
      model: 'gpt-4o',
      apiKey: 'sk-test-from-dotenv-123456',
    });
    const created = createProvider(config.provider as NonNullable<typeof config.provider>, {
      env: {},
    });
    expect(created.describe()).toMatchObject({ provider: 'openai', model: 'gpt-4o' });
  });

  it('lets the real environment win over .env', async () => {
    writeConfig('model:\n  provider: anthropic\n');
    writeFileSync(join(home(), '.env'), 'ANTHROPIC_API_KEY=from-dotenv-xxxxxxxx\n');
    const config = await load({ ANTHROPIC_API_KEY: 'from-environment-xx' });
    expect(config.provider).toMatchObject({
      apiKey: 'from-environment-xx',
      model: 'claude-sonnet-4-5',
    });
  });

  it('applies flags over config.yaml over the environment over defaults', async () => {
    writeConfig('model:\n  provider: openai\n  default: from-config\nagent:\n  max_turns: 12\n');
    const env = {
      OPENAI_API_KEY: 'k-123456',
      HERMES_MODEL: 'from-env',
      HERMES_MAX_ITERATIONS: '7',
    };
    expect((await load(env)).provider).toMatchObject({ model: 'from-config' });
    expect((await load(env)).maxTurns).toBe(12);
    expect((await load(env, { model: 'from-flag', maxTurns: 3 })).provider).toMatchObject({
      model: 'from-flag',
    });
    writeConfig('model:\n  provider: openai\n');
    expect((await load(env)).provider).toMatchObject({ model: 'from-env' });
    expect((await load(env)).maxTurns).toBe(7);
  });

  it('needs no key for a local OpenAI-compatible base URL', async () => {
    const config = await load({}, { baseUrl: 'http://127.0.0.1:8080/v1', model: 'llama' });
    expect(config.provider).toMatchObject({
      provider: 'custom',
      model: 'llama',
      baseUrl: 'http://127.0.0.1:8080/v1',
      apiKey: PLACEHOLDER_API_KEY,
    });
  });

  it('pools several keys and maps the fallback chain', async () => {
    writeConfig(
      [
        'model:',
        '  provider: openrouter',
        '  default: some/model',
        '  fallback:',
        '    - provider: anthropic',
        '      model: claude-x',
        '      api_key_env: MY_ANTHROPIC',
      ].join('\n'),
    );
    const config = await load({ OPENROUTER_API_KEY: 'key-one-1234, key-two-5678' });
    expect(config.provider?.credentials).toHaveLength(2);
    expect(config.provider?.fallback).toEqual([
      { provider: 'anthropic', model: 'claude-x', apiKeyEnv: 'MY_ANTHROPIC' },
    ]);
  });

  // biome-ignore lint/suspicious/noTemplateCurlyInString: the test is about literal ${VAR} text
  it('substitutes ${VAR} and warns about unset ones', async () => {
    writeConfig(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: config.yaml text, not a template
      'model:\n  provider: custom\n  default: m\n  base_url: http://${HOST}:1234/v1\nskills:\n  external_dirs: ["${NOPE}/skills"]\n',
    );
    const config = await load({ HOST: '127.0.0.1' });
    expect(config.provider).toMatchObject({ baseUrl: 'http://127.0.0.1:1234/v1' });
    expect(config.warnings.join('\n')).toMatch(
      /skills\.external_dirs\[0\] \(line 6\): \$\{NOPE\} is not set/,
    );
  });

  it('warns about unknown keys with their line and a suggestion', async () => {
    writeConfig('agent:\n  max_turn: 5\nmystery: 1\n');
    const config = await load();
    expect(config.warnings).toContain(
      "agent.max_turn (line 2): unknown key, ignored; did you mean 'max_turns'?",
    );
    expect(config.warnings.some((w) => w.startsWith('mystery (line 3): unknown key'))).toBe(true);
  });

  it('rejects a bad value naming its key path, line and expected type', async () => {
    writeConfig('# top\nmodel:\n  provider: openai\nagent:\n  max_turns: lots\n');
    await expect(load()).rejects.toThrow(/agent\.max_turns \(line 5\):.*expected number/);
  });

  it('rejects broken YAML naming the line', async () => {
    writeConfig('model:\n  provider: [openai\n');
    await expect(load()).rejects.toThrow(
      /config\.yaml is not valid:[\s\S]*line \d+: not valid YAML/,
    );
  });

  it('validates terminal with the environments schema and approvals with the approval loader', async () => {
    writeConfig('terminal:\n  backend: teleport\n');
    await expect(load()).rejects.toThrow(/terminal\.backend \(line 2\)/);
    writeConfig('approvals:\n  timeout: -3\n');
    await expect(load()).rejects.toThrow(/approvals\.timeout \(line 2\)/);
  });

  it('reads a profile home like any other', async () => {
    const profile = join(home(), 'profiles', 'work');
    mkdirSync(profile, { recursive: true });
    writeConfig('agent:\n  max_turns: 4\nskills:\n  external_dirs: [/opt/skills]\n', profile);
    const config = await load({}, {}, profile);
    expect(config.maxTurns).toBe(4);
    expect(config.skillDirs).toEqual(['/opt/skills']);
    expect((await load()).maxTurns).toBe(90);
  });
});
