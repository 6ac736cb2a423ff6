/**
 * buildGatewayServer: the composition both gateway binaries run, from a real config.yaml — a
 * real api_server on a free port in front of the real Gateway, SQLite store and agent factory,
 * agents answered by a @hermes/testkit scripted model, and gateway.log written with every
 * configured secret masked.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isHermesError } from '@hermes/protocol';
import {
  type ScriptBuilder,
  type ScriptedServer,
  script,
  startScriptedServer,
} from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import {
  buildGatewayServer,
  type GatewayServer,
  listeningUrl,
  loadHermesConfig,
  NO_ADAPTER_CODE,
} from '../src/index.ts';

const home = () => process.env.HERMES_HOME as string;
const API_KEY = 'gw-test-key-0123456789abcdef0123';
const PROVIDER_KEY = 'provider-secret-9f8e7d6c5b4a';
const WEBHOOK_SECRET = 'hook-secret-5a4b3c2d1e0f';

let model: ScriptedServer | undefined;
let server: GatewayServer | undefined;
afterEach(async () => {
  await server?.close({ drainTimeoutMs: 1_000 });
  await model?.close();
  server = undefined;
  model = undefined;
});

async function configure(
  turns: ScriptBuilder,
  platforms: string,
  env: Record<string, string> = {},
) {
  model = await startScriptedServer(turns);
  writeFileSync(
    join(home(), 'config.yaml'),
    [
      'model:',
      '  provider: openai',
      '  default: scripted-model',
      `  base_url: ${model.baseUrl('openai-chat')}`,
      // No title request: it would be one more request to the scripted model.
      'learning:',
      '  titles: false',
      'platforms:',
      platforms,
      '',
    ].join('\n'),
  );
  return loadHermesConfig({
    hermesHome: home(),
    env: { OPENAI_API_KEY: PROVIDER_KEY, ...env },
  });
}

const API_SERVER = `  api_server:\n    enabled: true\n    port: 0\n    key: ${API_KEY}`;

describe('buildGatewayServer', () => {
  it('serves chat completions and /health from the gateway through a real api_server', async () => {
    const config = await configure(script().text('Hello from the gateway.'), API_SERVER);
    server = buildGatewayServer(config, { agents: { cwd: home() } });
    expect(server.adapters.map((adapter) => adapter.platform)).toEqual(['api_server']);
    await server.gateway.start();
    const url = listeningUrl(server.adapters[0] as (typeof server.adapters)[number]);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const answer = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'hermes-agent', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { choices: { message: { content: string } }[] };
    expect(body.choices[0]?.message.content).toBe('Hello from the gateway.');
    expect(model?.requests.length).toBe(1);

    const health = (await (await fetch(`${url}/health`)).json()) as Record<string, unknown>;
    expect(health).toMatchObject({
      status: 'ok',
      adapters: [{ platform: 'api_server', connected: true }],
      runningTurns: 0,
      cachedAgents: 1,
    });
    expect((health.heap as { usedBytes: number }).usedBytes).toBeGreaterThan(0);
  });

  it('warns about an enabled platform no adapter provides and builds the rest', async () => {
    const config = await configure(
      script().text('x'),
      `${API_SERVER}\n  telegram:\n    enabled: true\n  discord:\n    enabled: false`,
    );
    server = buildGatewayServer(config, { agents: { cwd: home() } });
    expect(server.warnings).toEqual([
      'platform telegram is enabled but no adapter provides it: no built-in adapter serves it ' +
        'and no enabled plugin registers it (install a plugin that provides it and add it to ' +
        'plugins.enabled)',
    ]);
    expect(server.adapters.map((adapter) => adapter.platform)).toEqual(['api_server']);
  });

  it('builds the webhook receiver with the api_server', async () => {
    const config = await configure(
      script().text('x'),
      `${API_SERVER}\n  webhook:\n    enabled: true\n    port: 0\n    secret: ${WEBHOOK_SECRET}\n    routes:\n      ci:\n        prompt: 'Build {{status}}'`,
    );
    server = buildGatewayServer(config, { agents: { cwd: home() } });
    await server.gateway.start();
    const webhook = server.adapters.find((adapter) => adapter.platform === 'webhook');
    expect(webhook).toBeDefined();
    const url = listeningUrl(webhook as NonNullable<typeof webhook>);
    const refused = await fetch(`${url}/webhooks/ci`, { method: 'POST', body: '{}' });
    expect(refused.status).toBe(401);
    expect(server.gateway.health().adapters.map((adapter) => adapter.connected)).toEqual([
      true,
      true,
    ]);
  });

  it('refuses to build without an enabled adapter, naming how to enable the API server', async () => {
    const config = await configure(script().text('x'), '  telegram:\n    enabled: false');
    let caught: unknown;
    try {
      buildGatewayServer(config);
    } catch (error) {
      caught = error;
    }
    expect(isHermesError(caught) && caught.code).toBe(NO_ADAPTER_CODE);
    expect((caught as Error).message).toContain('API_SERVER_ENABLED=true');
    expect((caught as Error).message).toContain('platforms.api_server.enabled: true');
  });

  it('refuses a short API key before opening anything', async () => {
    const config = await configure(
      script().text('x'),
      '  api_server:\n    enabled: true\n    port: 0\n    key: short-key',
    );
    expect(() => buildGatewayServer(config)).toThrow(/at least 16/);
    expect(existsSync(join(home(), 'state.db'))).toBe(false);
  });

  it('writes gateway.log with the API key, provider key and webhook secret masked', async () => {
    const config = await configure(
      script().text('logged'),
      `${API_SERVER}\n  webhook:\n    enabled: true\n    port: 0\n    secret: ${WEBHOOK_SECRET}`,
    );
    server = buildGatewayServer(config, { agents: { cwd: home() } });
    await server.gateway.start();
    // What a careless line could carry: the secrets must not survive into the file.
    server.log.warn('probe', {
      header: `Bearer ${API_KEY}`,
      provider: PROVIDER_KEY,
      hook: WEBHOOK_SECRET,
    });
    await server.close({ drainTimeoutMs: 1_000 });
    const log = readFileSync(join(home(), 'logs', 'gateway.log'), 'utf8');
    expect(log).toContain('[gateway] gateway: started');
    expect(log).toContain('[gateway] probe');
    expect(log).toContain('gateway: stopped');
    for (const secret of [API_KEY, PROVIDER_KEY, WEBHOOK_SECRET]) expect(log).not.toContain(secret);
  });
});
