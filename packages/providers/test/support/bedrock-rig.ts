/**
 * Shared set-up of the Bedrock adapter tests: a scripted server speaking Converse (binary event
 * stream included) over real HTTP on 127.0.0.1, and a `BedrockConverseProvider` pointed at it
 * with fake static AWS credentials, so no test ever reaches the machine's AWS configuration.
 */
import {
  type RecordedRequest,
  type ScriptBuilder,
  type ScriptedServer,
  type ScriptInput,
  startScriptedServer,
} from '@hermes/testkit';
import { expect } from 'vitest';
import type { BedrockConverseOptions } from '../../src/adapters/bedrock-options.js';
import { BedrockConverseProvider } from '../../src/adapters/bedrock-provider.js';
import { type ClassifiedError, isProviderError } from '../../src/classified-error.js';
import type { ChatRequest } from '../../src/index.js';

/** The fake credentials every test signs with; the secret must never appear in an error. */
export const FAKE_CREDENTIALS = { accessKeyId: 'AKIDTEST', secretAccessKey: 'test' } as const;

/** A secret distinctive enough to search error texts for. */
export const SECRET_ACCESS_KEY = 'wJalrXUtnFEMI-K7MDENG-bPxRfiCYSECRET';

/** The model most tests name: a Bedrock model id, with the `:` the path must encode. */
export const MODEL = 'anthropic.claude-haiku-4-5-20251001-v1:0';

/** A started server with a provider pointed at it. */
export interface BedrockRig {
  readonly server: ScriptedServer;
  readonly provider: BedrockConverseProvider;
}

const open: ScriptedServer[] = [];
const providers: BedrockConverseProvider[] = [];

/** Overrides of the rig's options; `undefined` removes a default (e.g. the static credentials). */
export type BedrockRigOptions = {
  readonly [K in keyof BedrockConverseOptions]?: BedrockConverseOptions[K] | undefined;
};

/** Starts a server answering from `script` and a provider for it (static fake credentials). */
export async function startBedrockRig(
  script: ScriptBuilder | ScriptInput,
  options: BedrockRigOptions = {},
): Promise<BedrockRig> {
  const server = await startScriptedServer(script);
  open.push(server);
  const merged = {
    baseUrl: server.baseUrl('bedrock-converse'),
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: SECRET_ACCESS_KEY },
    ...options,
  };
  const defined = Object.entries(merged).filter(([, value]) => value !== undefined);
  const provider = new BedrockConverseProvider(
    Object.fromEntries(defined) as BedrockConverseOptions,
  );
  providers.push(provider);
  return { server, provider };
}

/** Closes every provider and server {@link startBedrockRig} started (call it in `afterEach`). */
export async function closeBedrockRigs(): Promise<void> {
  await Promise.all(providers.splice(0).map((provider) => provider.close()));
  await Promise.all(open.splice(0).map((server) => server.close()));
}

/** The recorded Converse / ConverseStream requests, oldest first. */
export function converseRequests(server: ScriptedServer): RecordedRequest[] {
  return server.requests.filter((r) => r.path.startsWith('/model/'));
}

/** The JSON body of the `index`-th Converse request. */
export function sentInput(server: ScriptedServer, index = 0): Record<string, unknown> {
  const request = converseRequests(server)[index];
  if (request === undefined) throw new Error(`no Converse request #${index} was recorded`);
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
export function askBedrock(stream: boolean): ChatRequest {
  return { model: MODEL, messages: [{ role: 'user', content: 'Hello?' }], stream };
}

/** The classification of `error`, which must be a ProviderError free of the secret. */
export function secretFreeClassification(error: unknown): ClassifiedError {
  if (!isProviderError(error)) throw new Error(`not a ProviderError: ${String(error)}`);
  expect(JSON.stringify(error)).not.toContain(SECRET_ACCESS_KEY);
  expect(String(error.message)).not.toContain(SECRET_ACCESS_KEY);
  return error.classified;
}
