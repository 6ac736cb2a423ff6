/**
 * The Gemini adapter reached from a provider entry, over real HTTP: `provider: gemini` (or
 * `google`, or the Gemini host) selects it, `GEMINI_API_KEY` / `GOOGLE_API_KEY` supply the key,
 * and a 429 is retried after the wait Gemini asked for before the answer comes through.
 */
import { script, startScriptedServer } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { createProvider } from '../src/create-provider.js';
import { MemoryCredentialStore } from '../src/credentials/index.js';
import { closeRigs, MODEL, modelRequests, SECRET_KEY } from './support/gemini-rig.js';

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await closeRigs();
});

const ask = { model: MODEL, messages: [{ role: 'user' as const, content: 'Hi' }], stream: true };

describe('gemini: from a provider entry', () => {
  it.each([
    ['gemini', { GEMINI_API_KEY: SECRET_KEY }],
    ['google', { GOOGLE_API_KEY: SECRET_KEY }],
  ])('provider %s reads its key from the environment', async (provider, env) => {
    const server = await startScriptedServer(script().text('Bonjour.'));
    servers.push(server);
    const created = createProvider(
      { provider, model: MODEL, baseUrl: server.baseUrl('gemini') },
      { env, credentialStore: new MemoryCredentialStore(), sleep: () => Promise.resolve() },
    );
    const response = await created.provider.chat(ask);
    expect(response.message.content).toBe('Bonjour.');
    expect(modelRequests(server)[0]?.headers['x-goog-api-key']).toBe(SECRET_KEY);
  });

  it('retries a 429 after the RetryInfo delay, then answers', async () => {
    const quota = {
      error: {
        code: 429,
        message: 'Resource has been exhausted (e.g. check quota).',
        status: 'RESOURCE_EXHAUSTED',
        details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '2s' }],
      },
    };
    const server = await startScriptedServer(
      script().fault({ kind: 'http', status: 429, body: quota }).next().text('After the wait.'),
    );
    servers.push(server);
    const waits: number[] = [];
    const created = createProvider(
      {
        provider: 'my-gemini',
        apiMode: 'gemini',
        apiKeyEnv: 'GEMINI_API_KEY',
        model: MODEL,
        baseUrl: server.baseUrl('gemini'),
      },
      {
        env: { GEMINI_API_KEY: SECRET_KEY },
        credentialStore: new MemoryCredentialStore(),
        sleep: (ms: number) => {
          waits.push(ms);
          return Promise.resolve();
        },
      },
    );
    const response = await created.provider.chat(ask);
    expect(response.message.content).toBe('After the wait.');
    expect(modelRequests(server)).toHaveLength(2);
    expect(waits.some((ms) => ms >= 2_000)).toBe(true);
  });
});
