/**
 * Shared set-up of the Anthropic adapter tests: a scripted server speaking the Messages protocol
 * over real HTTP on 127.0.0.1, and an `AnthropicMessagesProvider` pointed at it.
 */
import {
  type RecordedRequest,
  type ScriptBuilder,
  type ScriptedServer,
  type ScriptInput,
  startScriptedServer,
} from '@hermes/testkit';
import { expect } from 'vitest';
import type { AnthropicMessagesOptions } from '../../src/adapters/anthropic-options.js';
import { AnthropicMessagesProvider } from '../../src/adapters/anthropic-provider.js';
import { type ClassifiedError, isProviderError } from '../../src/classified-error.js';
import type { ChatRequest } from '../../src/index.js';

/** The API key every test configures; it must never appear in an error. */
export const SECRET_KEY = 'sk-ant-test-SECRET1234567890';

/**
 * The model most tests name: known to the built-in table (64K output) and, unlike
 * `claude-sonnet-4-5`, not one the SDK prints a deprecation warning for.
 */
export const MODEL = 'claude-haiku-4-5';

/** A started server with a provider pointed at it. */
export interface AnthropicRig {
  readonly server: ScriptedServer;
  readonly provider: AnthropicMessagesProvider;
}

/** Servers started by {@link startRig}; {@link closeRigs} closes them (call it in `afterEach`). */
const open: ScriptedServer[] = [];

/** Starts a server answering from `script` and a provider for it. */
export async function startRig(
  script: ScriptBuilder | ScriptInput,
  options: Partial<AnthropicMessagesOptions> = {},
): Promise<AnthropicRig> {
  const server = await startScriptedServer(script);
  open.push(server);
  const provider = new AnthropicMessagesProvider({
    apiKey: SECRET_KEY,
    baseUrl: server.baseUrl('anthropic-messages'),
    ...options,
  });
  return { server, provider };
}

/** Closes every server {@link startRig} started. */
export async function closeRigs(): Promise<void> {
  await Promise.all(open.splice(0).map((server) => server.close()));
}

/** The recorded `POST /v1/messages` requests, oldest first. */
export function messageRequests(server: ScriptedServer): RecordedRequest[] {
  return server.requests.filter((r) => r.path === '/v1/messages');
}

/** The JSON body of the `index`-th messages request, as a plain record. */
export function sentBody(server: ScriptedServer, index = 0): Record<string, unknown> {
  const request = messageRequests(server)[index];
  if (request === undefined) throw new Error(`no messages request #${index} was recorded`);
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
export function ask(stream: boolean): ChatRequest {
  return { model: MODEL, messages: [{ role: 'user', content: 'Hello?' }], stream };
}

/** The classification of `error`, which must be a ProviderError whose JSON is free of the key. */
export function keyFreeClassification(error: unknown): ClassifiedError {
  if (!isProviderError(error)) throw new Error(`not a ProviderError: ${String(error)}`);
  expect(JSON.stringify(error)).not.toContain(SECRET_KEY);
  return error.classified;
}
