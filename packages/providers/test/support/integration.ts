/**
 * Shared set-up of the end-to-end tests that drive createProvider over real HTTP: testkit
 * servers closed after each test, the request they all send, and a sleep that records its waits
 * instead of waiting.
 */
import { type ScriptBuilder, type ScriptedServer, startScriptedServer } from '@hermes/testkit';
import { afterEach } from 'vitest';
import type { ChatRequest } from '../../src/chat-request.js';

/**
 * The servers of a test file, each closed after the test that started it; call once at the top
 * level of the file. Returns the function that starts one.
 */
export function useScriptedServers(): (builder: ScriptBuilder) => Promise<ScriptedServer> {
  const servers: ScriptedServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  return async (builder) => {
    const server = await startScriptedServer(builder);
    servers.push(server);
    return server;
  };
}

/** A streamed one-message request to `model`. */
export function streamedHello(model = 'scripted-model'): ChatRequest {
  return { model, messages: [{ role: 'user', content: 'Hello?' }], stream: true };
}

/** A `sleep` for CreateProviderDeps that returns at once and keeps every wait it was asked for. */
export function recordingSleep(): { sleep: (ms: number) => Promise<void>; waits: number[] } {
  const waits: number[] = [];
  return {
    waits,
    sleep: (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
  };
}
