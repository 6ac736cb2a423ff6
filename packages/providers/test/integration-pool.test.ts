// Credential pools end to end: createProvider → PooledProvider → the real OpenAI Chat adapter →
// real HTTP to the testkit, with pool state in the per-test HERMES_HOME.
import { readFileSync } from 'node:fs';
import { faults, type ScriptedServer, script } from '@hermes/testkit';
import { describe, expect, it } from 'vitest';
import { type CreateProviderDeps, createProvider } from '../src/create-provider.js';
import { defaultCredentialPoolPath, fingerprintKey } from '../src/credentials/index.js';
import { streamedHello, useScriptedServers } from './support/integration.js';

const FIRST = 'sk-first-key-000000000001';
const SECOND = 'sk-second-key-00000000002';
const MINUTE = 60_000;

const serve = useScriptedServers();

class Clock {
  time = Date.UTC(2026, 0, 1);
  readonly now = (): number => this.time;
}

/** A pooled openrouter entry over two keys, pointed at `server`, state in this test's home. */
function pooled(server: ScriptedServer, extra: Partial<CreateProviderDeps> = {}) {
  return createProvider(
    {
      provider: 'openrouter',
      model: 'scripted-model',
      baseUrl: server.baseUrl('openai-chat'),
      credentials: [
        { apiKey: FIRST, label: 'first' },
        { apiKey: SECOND, label: 'second' },
      ],
    },
    { env: { HERMES_HOME: process.env.HERMES_HOME }, sleep: () => Promise.resolve(), ...extra },
  );
}

const ASK = streamedHello();

function keysUsed(server: ScriptedServer): Array<string | undefined> {
  return server.requests.map((request) => request.headers.authorization);
}

function stateFile(): string {
  return readFileSync(defaultCredentialPoolPath({ HERMES_HOME: process.env.HERMES_HOME }), 'utf8');
}

/** A 429 that names no wait, so the pool applies its own cooldown. */
const rateLimitedNoWait = { ...faults.rateLimited(0), headers: {}, message: 'Rate limit reached.' };

describe('credential pool over HTTP', () => {
  it('rotates to the second key when the first is rejected with a 401', async () => {
    const server = await serve(
      script().fault(faults.unauthorized()).next().text('Hi from key two'),
    );
    const { provider, model } = pooled(server);
    const deltas: string[] = [];
    const response = await provider.chat(
      { ...ASK, model },
      { onEvent: (e) => e.type === 'text_delta' && deltas.push(e.delta) },
    );
    expect(response.message.content).toBe('Hi from key two');
    expect(deltas.join('')).toBe('Hi from key two');
    expect(keysUsed(server)).toEqual([`Bearer ${FIRST}`, `Bearer ${SECOND}`]);
    expect(server.remaining()).toBe(0);
  });

  it('brings a key back after its 5-minute auth cooldown, by the injected clock', async () => {
    const server = await serve(
      script().fault(faults.unauthorized()).next().text('a').next().text('b').next().text('c'),
    );
    const clock = new Clock();
    const { provider } = pooled(server, { now: clock.now });
    await provider.chat(ASK);
    clock.time += 5 * MINUTE - 1;
    await provider.chat(ASK);
    clock.time += 1;
    const last = await provider.chat(ASK);
    expect(last.message.content).toBe('c');
    expect(keysUsed(server)).toEqual([
      `Bearer ${FIRST}`,
      `Bearer ${SECOND}`,
      `Bearer ${SECOND}`,
      `Bearer ${FIRST}`,
    ]);
  });

  it('benches a rate-limited key for an hour, then uses it again', async () => {
    const server = await serve(
      script().fault(rateLimitedNoWait).next().text('a').next().text('b').next().text('c'),
    );
    const clock = new Clock();
    const { provider } = pooled(server, { now: clock.now });
    expect((await provider.chat(ASK)).message.content).toBe('a');
    clock.time += 60 * MINUTE - 1;
    await provider.chat(ASK);
    clock.time += 1;
    await provider.chat(ASK);
    expect(keysUsed(server)).toEqual([
      `Bearer ${FIRST}`,
      `Bearer ${SECOND}`,
      `Bearer ${SECOND}`,
      `Bearer ${FIRST}`,
    ]);
  });

  it('remembers a dead key across a restart and never stores a key', async () => {
    const server = await serve(
      script()
        .fault({
          kind: 'http',
          status: 403,
          message: 'This API key does not have permission to use this model.',
          errorType: 'permission_error',
        })
        .next()
        .text('answered after the restart'),
    );
    const before = pooled(server);
    await expect(before.provider.chat(ASK)).rejects.toMatchObject({
      code: 'provider.auth_permanent',
    });
    await before.provider.close();

    const after = pooled(server);
    const response = await after.provider.chat(ASK);
    expect(response.message.content).toBe('answered after the restart');
    expect(keysUsed(server)).toEqual([`Bearer ${FIRST}`, `Bearer ${SECOND}`]);

    const file = stateFile();
    expect(file).not.toContain(FIRST);
    expect(file).not.toContain(SECOND);
    const saved = JSON.parse(file) as {
      providers: Record<string, { credentials: Array<{ fingerprint: string; status: string }> }>;
    };
    const byFingerprint = new Map(
      saved.providers.openrouter?.credentials.map((c) => [c.fingerprint, c.status]),
    );
    expect(byFingerprint.get(fingerprintKey(FIRST))).toBe('dead');
    expect(byFingerprint.get(fingerprintKey(SECOND))).toBe('ok');
  });

  it('fails over to the pool’s NoCredentialsError once every key is benched', async () => {
    const server = await serve(script().fault(faults.unauthorized()).times(2));
    const { provider } = pooled(server, { now: new Clock().now });
    await expect(provider.chat(ASK)).rejects.toMatchObject({ code: 'provider.auth' });
    await expect(provider.chat(ASK)).rejects.toMatchObject({
      code: 'provider.no_credentials',
      classified: { shouldFallback: true },
    });
    expect(server.requests).toHaveLength(2);
  });
});
