/**
 * Shared set-up of the Gemini adapter tests: a scripted server speaking Gemini's REST wire over
 * real HTTP on 127.0.0.1, and a `GeminiProvider` pointed at it.
 */
import {
  type RecordedRequest,
  type ScriptBuilder,
  type ScriptedServer,
  type ScriptInput,
  startScriptedServer,
} from '@hermes/testkit';
import { expect } from 'vitest';
import type { GeminiOptions } from '../../src/adapters/gemini-options.js';
import { GeminiProvider } from '../../src/adapters/gemini-provider.js';
import { type ClassifiedError, isProviderError } from '../../src/classified-error.js';
import type { ChatRequest } from '../../src/index.js';

/** The API key every test configures; it must never appear in an error or a URL. */
export const SECRET_KEY = 'AIzaSy-gemini-test-SECRET1234567890';

/** The model most tests name (known to the built-in table). */
export const MODEL = 'gemini-2.5-flash';

/** A started server with a provider pointed at it. */
export interface GeminiRig {
  readonly server: ScriptedServer;
  readonly provider: GeminiProvider;
}

const open: ScriptedServer[] = [];

/** Starts a server answering from `script` and a provider for it. */
export async function startRig(
  script: ScriptBuilder | ScriptInput,
  options: Partial<GeminiOptions> = {},
): Promise<GeminiRig> {
  const server = await startScriptedServer(script);
  open.push(server);
  const provider = new GeminiProvider({
    apiKey: SECRET_KEY,
    baseUrl: server.baseUrl('gemini'),
    ...options,
  });
  return { server, provider };
}

/** Closes every server {@link startRig} started (call it in `afterEach`). */
export async function closeRigs(): Promise<void> {
  await Promise.all(open.splice(0).map((server) => server.close()));
}

/** The recorded Gemini model requests, oldest first. */
export function modelRequests(server: ScriptedServer): RecordedRequest[] {
  return server.requests.filter((r) => r.path.startsWith('/v1beta/models/'));
}

/** The JSON body of the `index`-th model request, as a plain record. */
export function sentBody(server: ScriptedServer, index = 0): Record<string, unknown> {
  const request = modelRequests(server)[index];
  if (request === undefined) throw new Error(`no model request #${index} was recorded`);
  return request.body as Record<string, unknown>;
}

/** What `promise` rejected with; fails when it resolved. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

/** A one-message request to {@link MODEL}, streamed or not. */
export function ask(stream: boolean, text = 'Hello?'): ChatRequest {
  return { model: MODEL, messages: [{ role: 'user', content: text }], stream };
}

/** The classification of `error`, which must be a ProviderError whose JSON is free of the key. */
export function keyFreeClassification(error: unknown): ClassifiedError {
  if (!isProviderError(error)) throw new Error(`not a ProviderError: ${String(error)}`);
  expect(JSON.stringify(error)).not.toContain(SECRET_KEY);
  expect(error.message).not.toContain(SECRET_KEY);
  return error.classified;
}
