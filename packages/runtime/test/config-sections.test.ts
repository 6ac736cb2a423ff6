/**
 * The `gateway:` and `platforms:` sections (validated with `@hermes/gateway`'s schemas, errors
 * named by key path and line) and the `API_SERVER_*` environment overrides.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GATEWAY_DEFAULTS } from '@hermes/gateway';
import { isHermesError } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { type HermesConfig, loadHermesConfig } from '../src/index.ts';

const home = () => process.env.HERMES_HOME as string;
const KEY = 'sk-api-server-0123456789abcdef';

function writeConfig(text: string): void {
  writeFileSync(join(home(), 'config.yaml'), text);
}

const load = (env: Record<string, string | undefined> = {}) =>
  loadHermesConfig({ hermesHome: home(), env });

async function failure(env: Record<string, string | undefined> = {}): Promise<Error> {
  try {
    await load(env);
  } catch (error) {
    expect(isHermesError(error) && error.code).toBe('config.invalid');
    return error as Error;
  }
  throw new Error('expected config.invalid');
}

function apiServer(config: HermesConfig) {
  return config.platforms.find((platform) => platform.name === 'api_server');
}

describe('gateway:', () => {
  it('is all defaults when absent, and the platforms list is empty', async () => {
    const config = await load();
    expect(config.gateway).toEqual(GATEWAY_DEFAULTS);
    expect(config.platforms).toEqual([]);
  });

  it('resolves the section, and tool_progress falls back to display.tool_progress', async () => {
    writeConfig(
      [
        'display:',
        '  tool_progress: new',
        'gateway:',
        '  busy_policy: queue',
        '  group_sessions_per_user: false',
        '  agent_cache:',
        '    max: 8',
        '    idle_ttl_seconds: 60',
        '  reset:',
        '    policy: idle',
        '    idle_minutes: 30',
      ].join('\n'),
    );
    const config = await load();
    expect(config.gateway).toMatchObject({
      busyPolicy: 'queue',
      groupSessionsPerUser: false,
      agentCache: { max: 8, idleTtlMs: 60_000 },
      reset: { policy: 'idle', idleMinutes: 30 },
      toolProgress: 'new',
    });
    expect(config.warnings).toEqual([]);
    writeConfig('display:\n  tool_progress: new\ngateway:\n  tool_progress: off\n');
    expect((await load()).gateway.toolProgress).toBe('off');
  });

  it('names a bad value and an unknown key by key path and line', async () => {
    writeConfig(
      [
        'model:',
        '  provider: openai',
        'gateway:',
        '  busy_policy: wait',
        '  agent_cache:',
        '    maxx: 3',
      ].join('\n'),
    );
    const error = await failure();
    expect(error.message).toMatch(/gateway\.busy_policy \(line 4\): /);
    expect(error.message).toMatch(/gateway\.agent_cache\.maxx \(line 6\): unknown key/);
  });
});

describe('platforms:', () => {
  it('lists every entry with its shared settings and the raw entry for the adapter', async () => {
    writeConfig(
      [
        'platforms:',
        '  telegram:',
        '    enabled: true',
        '    allowed_users: [123, "456"]',
        '    home_channel: "-100200"',
        '  webhook:',
        '    enabled: false',
      ].join('\n'),
    );
    const config = await load();
    expect(config.platforms).toEqual([
      {
        name: 'telegram',
        enabled: true,
        allowAllUsers: false,
        allowedUsers: ['123', '456'],
        raw: { enabled: true, allowed_users: ['123', '456'], home_channel: '-100200' },
      },
      {
        name: 'webhook',
        enabled: false,
        allowAllUsers: false,
        allowedUsers: [],
        raw: { enabled: false },
      },
    ]);
    // An adapter's own keys are its business: no unknown-key warning.
    expect(config.warnings).toEqual([]);
  });

  it('names a bad shared key by key path and line', async () => {
    writeConfig('platforms:\n  telegram:\n    enabled: yes please\n    allow_all_users: 1\n');
    const error = await failure();
    expect(error.message).toMatch(/platforms\.telegram\.enabled \(line 3\): /);
    expect(error.message).toMatch(/platforms\.telegram\.allow_all_users \(line 4\): /);
  });
});

describe('API_SERVER_* overrides', () => {
  it('create the api_server entry with the defaults host 127.0.0.1 and port 8642', async () => {
    expect(apiServer(await load())).toBeUndefined();
    const entry = apiServer(await load({ API_SERVER_ENABLED: 'true' }));
    expect(entry).toMatchObject({ enabled: true, raw: { host: '127.0.0.1', port: 8642 } });
  });

  it('read each variable into its key', async () => {
    const entry = apiServer(
      await load({
        API_SERVER_ENABLED: 'yes',
        API_SERVER_HOST: '0.0.0.0',
        API_SERVER_PORT: '9000',
        API_SERVER_KEY: KEY,
        API_SERVER_MODEL_NAME: 'my-agent',
        API_SERVER_CORS_ORIGINS: 'http://a.test, https://b.test,,',
      }),
    );
    expect(entry?.enabled).toBe(true);
    expect(entry?.raw).toEqual({
      enabled: true,
      host: '0.0.0.0',
      port: 9000,
      key: KEY,
      model_name: 'my-agent',
      cors_origins: ['http://a.test', 'https://b.test'],
    });
  });

  it('accept true/false, 1/0 and yes/no in any case for API_SERVER_ENABLED', async () => {
    for (const [text, enabled] of [
      ['TRUE', true],
      ['1', true],
      ['Yes', true],
      ['false', false],
      ['0', false],
      ['no', false],
    ] as const) {
      expect(apiServer(await load({ API_SERVER_ENABLED: text }))?.enabled).toBe(enabled);
    }
  });

  it('win over config.yaml, and .env counts as environment', async () => {
    writeConfig(
      [
        'platforms:',
        '  api_server:',
        '    enabled: false',
        '    port: 7000',
        '    model_name: from-config',
        '    max_concurrent_runs: 4',
      ].join('\n'),
    );
    writeFileSync(join(home(), '.env'), 'API_SERVER_ENABLED=1\nAPI_SERVER_PORT=7100\n');
    const entry = apiServer(await load({ API_SERVER_PORT: '7200' }));
    expect(entry?.enabled).toBe(true);
    expect(entry?.raw).toEqual({
      enabled: true,
      host: '127.0.0.1',
      port: 7200,
      model_name: 'from-config',
      max_concurrent_runs: 4,
    });
    expect(apiServer(await load())?.raw.port).toBe(7100);
  });

  it('keep config.yaml values when the variables are unset or blank', async () => {
    writeConfig('platforms:\n  api_server:\n    enabled: true\n    host: 10.0.0.5\n');
    const entry = apiServer(await load({ API_SERVER_HOST: '  ', API_SERVER_ENABLED: '' }));
    expect(entry?.raw).toEqual({ enabled: true, host: '10.0.0.5', port: 8642 });
  });

  it('take port 0 (a free port, as in config.yaml)', async () => {
    expect(apiServer(await load({ API_SERVER_PORT: '0' }))?.raw).toMatchObject({ port: 0 });
  });

  it('refuse a port outside 0-65535 or not a whole number, naming the variable', async () => {
    for (const port of ['65536', '80.5', 'http', '-1']) {
      const error = await failure({ API_SERVER_PORT: port });
      expect(error.message).toContain(`API_SERVER_PORT (environment): expected a port number`);
      expect(error.message).toContain(`'${port}'`);
    }
  });

  it('refuse an API_SERVER_ENABLED that is not a yes or a no', async () => {
    const error = await failure({ API_SERVER_ENABLED: 'maybe' });
    expect(error.message).toMatch(/API_SERVER_ENABLED \(environment\): expected true\/false/);
  });
});

describe('the api_server key', () => {
  it('never appears in warnings or errors', async () => {
    writeConfig(
      [
        'platforms:',
        '  api_server:',
        `    key: ${KEY}`,
        '    enabled: perhaps',
        'gateway:',
        '  mystery: 1',
        'agent:',
        '  max_turnz: 3',
      ].join('\n'),
    );
    const error = await failure({ API_SERVER_KEY: KEY, API_SERVER_PORT: 'x' });
    expect(error.message).toContain('platforms.api_server.enabled (line 4)');
    expect(error.message).not.toContain(KEY);
    expect(JSON.stringify((error as { details?: unknown }).details)).not.toContain(KEY);
    writeConfig(`platforms:\n  api_server:\n    key: ${KEY}\nagent:\n  max_turnz: 3\n`);
    const config = await load({ API_SERVER_KEY: KEY });
    expect(config.warnings.join('\n')).toContain('agent.max_turnz');
    expect(config.warnings.join('\n')).not.toContain(KEY);
  });
});

describe('<PLATFORM>_ALLOWED_USERS and <PLATFORM>_ALLOW_ALL_USERS', () => {
  const platform = (config: HermesConfig, name: string) =>
    config.platforms.find((entry) => entry.name === name);

  it('fill the allowlist of each configured platform, by its name', async () => {
    writeConfig('platforms:\n  telegram:\n    enabled: true\n  my-chat:\n    enabled: true\n');
    writeFileSync(join(home(), '.env'), 'MY_CHAT_ALLOW_ALL_USERS=yes\n');
    const config = await load({ TELEGRAM_ALLOWED_USERS: ' 123, 456,,' });
    expect(platform(config, 'telegram')?.allowedUsers).toEqual(['123', '456']);
    expect(platform(config, 'telegram')?.allowAllUsers).toBe(false);
    expect(platform(config, 'my-chat')?.allowAllUsers).toBe(true);
  });

  it('lose to config.yaml, and add no platform config.yaml does not name', async () => {
    writeConfig('platforms:\n  telegram:\n    allowed_users: [999]\n    allow_all_users: false\n');
    const config = await load({
      TELEGRAM_ALLOWED_USERS: '123',
      TELEGRAM_ALLOW_ALL_USERS: 'true',
      DISCORD_ALLOWED_USERS: '5',
    });
    expect(platform(config, 'telegram')?.allowedUsers).toEqual(['999']);
    expect(platform(config, 'telegram')?.allowAllUsers).toBe(false);
    expect(platform(config, 'discord')).toBeUndefined();
  });
});
