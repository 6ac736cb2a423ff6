/**
 * Shared set-up of the OpenAI adapter tests: one scripted testkit server per test (closed after
 * it), an adapter pointed at it, the request bodies it recorded, hand-written SSE bodies, and the
 * factory that runs the ModelProvider contract suite against a fresh server.
 */
import type { ChatMessage } from '@hermes/protocol';
import {
  type ScriptBuilder,
  type ScriptedServer,
  script,
  startScriptedServer,
} from '@hermes/testkit';
import { afterEach } from 'vitest';
import type { AdapterOptions } from '../../src/adapters/adapter-options.js';
import { OpenAIChatProvider } from '../../src/adapters/openai-chat-provider.js';
import { OpenAIResponsesProvider } from '../../src/adapters/openai-responses-provider.js';
import type { ChatRequest, ChatResponse, ModelProvider, StreamEvent } from '../../src/index.js';
import {
  describeModelProviderContract,
  type ModelProviderContractOptions,
  type ModelProviderFactory,
} from '../../src/testing.js';
import { ABORT_DEADLINE_BACKSTOP_MS } from './patience.js';

/** A key shaped like a real one, so every redaction rule has something to catch. */
export const API_KEY = 'sk-test-SECRET1234567890';
/** The part of {@link API_KEY} that must never appear in an error. */
export const SECRET_PART = 'SECRET1234567890';

/** The one-message conversation most adapter tests send. */
export const hello: ChatMessage[] = [{ role: 'user', content: 'Hello?' }];

/** The two wire protocols of the OpenAI adapters. */
export type OpenAIProtocol = 'openai-chat' | 'openai-responses';

/** The adapter class for `protocol`, constructed with `options`. */
export function adapterFor(
  protocol: OpenAIProtocol,
  options: AdapterOptions,
): OpenAIChatProvider | OpenAIResponsesProvider {
  return protocol === 'openai-chat'
    ? new OpenAIChatProvider(options)
    : new OpenAIResponsesProvider(options);
}

/** The per-test server of a test file; call once at the top level of the file. */
export function useScriptedServer() {
  let server: ScriptedServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const current = (): ScriptedServer => {
    if (server === undefined) throw new Error('no server started in this test');
    return server;
  };
  /** Starts the server for `builder` and returns an adapter of `protocol` pointed at it. */
  const start = async (
    protocol: OpenAIProtocol,
    builder: ScriptBuilder,
    options: Partial<AdapterOptions> = {},
  ) => {
    server = await startScriptedServer(builder);
    return adapterFor(protocol, { apiKey: API_KEY, baseUrl: server.baseUrl(protocol), ...options });
  };
  return {
    current,
    start,
    /** {@link start} for one protocol, for files that test a single adapter. */
    startFor:
      (protocol: OpenAIProtocol) =>
      (builder: ScriptBuilder, options: Partial<AdapterOptions> = {}) =>
        start(protocol, builder, options),
    /** The parsed JSON body of the `n`th request the server received. */
    sentBody(n = 0): Record<string, unknown> {
      const body = current().requests[n]?.body;
      if (typeof body !== 'object' || body === null) throw new Error(`no request #${n}`);
      return body as Record<string, unknown>;
    },
  };
}

/** A script whose one turn answers with `body` as a 200 event stream, verbatim. */
export function rawEventStream(body: string): ScriptBuilder {
  return script().turn({
    fault: { kind: 'raw', status: 200, contentType: 'text/event-stream', body },
  });
}

/** A factory and cleanup for `describeModelProviderContract`, one server per contract test. */
export function contractSetup(protocol: OpenAIProtocol): {
  factory: ModelProviderFactory;
  options: ModelProviderContractOptions;
} {
  const servers = new Map<ModelProvider, ScriptedServer>();
  return {
    factory: async ({ script: scripted }) => {
      const server = await startScriptedServer(script().text(scripted.text).times(10));
      const provider = adapterFor(protocol, { apiKey: API_KEY, baseUrl: server.baseUrl(protocol) });
      servers.set(provider, server);
      return provider;
    },
    options: {
      abortDeadlineMs: ABORT_DEADLINE_BACKSTOP_MS,
      cleanup: async (provider) => {
        await servers.get(provider)?.close();
        servers.delete(provider);
      },
    },
  };
}

/** Runs the ModelProvider contract suite against the `protocol` adapter over the testkit. */
export function describeContractOverTestkit(protocol: OpenAIProtocol): void {
  const contract = contractSetup(protocol);
  describeModelProviderContract(`${protocol} over the testkit`, contract.factory, contract.options);
}

/** Sends `request` through `provider`, keeping every stream event it emitted along the way. */
export async function chatCollecting(
  provider: ModelProvider,
  request: ChatRequest,
): Promise<{ response: ChatResponse; events: StreamEvent[] }> {
  const events: StreamEvent[] = [];
  const response = await provider.chat(request, { onEvent: (e) => events.push(e) });
  return { response, events };
}
