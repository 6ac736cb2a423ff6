// No API key leaks out of createProvider's stack: not in error messages, not in serialized
// errors, not in fallback notifications — even when the service echoes the key back.
import { inspect } from 'node:util';
import { script } from '@hermes/testkit';
import { describe, expect, it } from 'vitest';
import { createProvider } from '../src/create-provider.js';
import type { FallbackActivation } from '../src/fallback/index.js';
import { streamedHello, useScriptedServers } from './support/integration.js';

const SECRET = 'sk-test-SECRET1234567890';

const serve = useScriptedServers();

const ASK = streamedHello();

/** A 401 whose message quotes the key, as some services do. */
const echoingUnauthorized = {
  kind: 'http' as const,
  status: 401,
  message: `Incorrect API key provided: ${SECRET}. You can find your key in your dashboard.`,
  errorType: 'invalid_request_error',
  errorCode: 'invalid_api_key',
};

function expectNoSecret(value: unknown): void {
  expect(JSON.stringify(value) ?? '').not.toContain(SECRET);
  expect(String(value)).not.toContain(SECRET);
  if (value instanceof Error) {
    expect(value.message).not.toContain(SECRET);
    expect(JSON.stringify((value as { details?: unknown }).details ?? {})).not.toContain(SECRET);
  }
}

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

describe('secrets over HTTP', () => {
  it('keeps the key out of a failed call’s error, even when the service echoes it', async () => {
    const server = await serve(script().fault(echoingUnauthorized));
    const { provider } = createProvider(
      {
        provider: 'openai',
        model: 'scripted-model',
        baseUrl: server.baseUrl('openai-chat'),
        apiKey: SECRET,
      },
      { env: {} },
    );
    const error = await failureOf(provider.chat(ASK));
    expect(error).toMatchObject({ code: 'provider.auth' });
    // The key did reach the service (so the test would notice a leak), just not the error.
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${SECRET}`);
    expectNoSecret(error);
    expect((error as Error).message).toContain('Incorrect API key provided');
  });

  it('keeps the key out of pool errors and fallback notifications', async () => {
    const primary = await serve(script().fault(echoingUnauthorized).times(2));
    const backup = await serve(script().text('safe').next().text('safe again'));
    const activations: FallbackActivation[] = [];
    const { provider, beginTurn } = createProvider(
      {
        provider: 'openai',
        model: 'scripted-model',
        baseUrl: primary.baseUrl('openai-chat'),
        credentials: [{ apiKey: SECRET }, { apiKey: `${SECRET}-2` }],
        fallback: [
          {
            provider: 'backup',
            model: 'other',
            baseUrl: backup.baseUrl('openai-chat'),
            apiKeyEnv: 'BACKUP_KEY',
          },
        ],
      },
      {
        env: { BACKUP_KEY: 'sk-backup-000000000000001', HERMES_HOME: process.env.HERMES_HOME },
        sleep: () => Promise.resolve(),
        onFallback: (activation) => activations.push(activation),
      },
    );
    beginTurn();
    const response = await provider.chat(ASK);
    expect(response.message.content).toBe('safe');
    expect(activations).toHaveLength(1);
    expectNoSecret(activations);
    expect(inspect(activations)).not.toContain(SECRET);

    // Next turn every key is benched: the pool's NoCredentialsError moves the turn along too.
    beginTurn();
    expect((await provider.chat(ASK)).message.content).toBe('safe again');
    expect(primary.requests).toHaveLength(2);
    expect(activations.map((a) => a.reason)).toEqual(['auth', 'auth']);
    expectNoSecret(activations);
  });

  it('names the variable, never a value, when a key is missing', () => {
    let error: unknown;
    try {
      createProvider(
        { provider: 'openai', model: 'm', apiKeyEnv: 'EMPTY_KEY' },
        { env: { OTHER: SECRET } },
      );
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({ code: 'provider.missing_api_key' });
    expectNoSecret(error);
  });
});
