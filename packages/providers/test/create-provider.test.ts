import { isHermesError } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import type { AdapterOptions } from '../src/adapters/adapter-options.js';
import {
  ADAPTERS,
  AnthropicMessagesProvider,
  BedrockConverseProvider,
  GeminiProvider,
  OpenAIChatProvider,
  OpenAIResponsesProvider,
} from '../src/adapters/index.js';
import type { ChatOptions, ChatRequest } from '../src/chat-request.js';
import type { ChatResponse } from '../src/chat-response.js';
import { ProviderError } from '../src/classified-error.js';
import { FAILURE_FLAGS } from '../src/classify-error.js';
import { type CreateProviderDeps, createProvider } from '../src/create-provider.js';
import { MemoryCredentialStore } from '../src/credentials/index.js';
import { FallbackProvider } from '../src/fallback/index.js';
import { ModelProvider } from '../src/model-provider.js';
import {
  KNOWN_BASE_URLS,
  MISSING_API_KEY_CODE,
  parseProviderConfig,
} from '../src/provider-config.js';
import { answerOf } from './support/provider-doubles.js';

const SECRET = 'sk-test-SECRET1234567890';

/** A fresh adapter class per test that records how it was built and what it was asked. */
function stubAdapter(name: string, failures: ProviderError[] = []) {
  const built: AdapterOptions[] = [];
  const calls: Array<{ apiKey: string; model: string }> = [];
  class Stub extends ModelProvider {
    readonly name = name;
    constructor(readonly options: AdapterOptions) {
      super();
      built.push(options);
    }
    chat(request: ChatRequest, _options?: ChatOptions): Promise<ChatResponse> {
      calls.push({ apiKey: this.options.apiKey, model: request.model });
      const failure = failures.shift();
      if (failure !== undefined) return Promise.reject(failure);
      return Promise.resolve(
        answerOf(request, `${name} answered`, this.options.providerName ?? name),
      );
    }
  }
  return { Stub, built, calls };
}

function deps(extra: Partial<CreateProviderDeps> = {}): CreateProviderDeps {
  return {
    env: {},
    credentialStore: new MemoryCredentialStore(),
    sleep: () => Promise.resolve(),
    ...extra,
  };
}

function caught(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

const ASK: ChatRequest = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };

describe('parseProviderConfig', () => {
  it('accepts a minimal entry and rejects unknown fields, naming them', () => {
    expect(parseProviderConfig({ provider: 'openai', model: 'gpt-4.1' })).toEqual({
      provider: 'openai',
      model: 'gpt-4.1',
    });
    const error = caught(() => parseProviderConfig({ provider: 'openai', model: 'x', apiKy: 'k' }));
    expect(String((error as Error).message)).toContain('apiKy');
  });

  it('rejects two key sources, a bad env name, a non-http URL and an unknown api mode', () => {
    const bad = [
      { provider: 'p', model: 'm', apiKey: 'k1', apiKeyEnv: 'K' },
      { provider: 'p', model: 'm', apiKeyEnv: 'not a name' },
      { provider: 'p', model: 'm', baseUrl: 'ftp://example.test' },
      { provider: 'p', model: 'm', apiMode: 'bedrock' },
      { provider: 'p', model: 'm', retry: { maxAttempts: 0 } },
      { provider: '', model: 'm' },
    ];
    for (const input of bad) {
      const error = caught(() => parseProviderConfig(input));
      expect(isHermesError(error), JSON.stringify(input)).toBe(true);
    }
  });

  it('never echoes a key in a validation error', () => {
    const error = caught(() =>
      parseProviderConfig({ provider: 'p', model: 'm', apiKey: SECRET, credentials: [] }),
    );
    expect(JSON.stringify(error)).not.toContain(SECRET);
    expect((error as Error).message).not.toContain(SECRET);
  });
});

describe('the adapter registry', () => {
  it('maps every API mode to its adapter', () => {
    expect(ADAPTERS).toEqual({
      chat_completions: OpenAIChatProvider,
      codex_responses: OpenAIResponsesProvider,
      anthropic_messages: AnthropicMessagesProvider,
      bedrock_converse: BedrockConverseProvider,
      gemini: GeminiProvider,
    });
  });
});

describe('createProvider', () => {
  it('throws provider.missing_api_key naming the default variable to set', () => {
    const error = caught(() => createProvider({ provider: 'openrouter', model: 'm' }, deps()));
    expect(error).toMatchObject({ code: MISSING_API_KEY_CODE });
    expect((error as Error).message).toContain('OPENROUTER_API_KEY');
  });

  it('names the configured variable when apiKeyEnv is set, reading only the injected env', () => {
    const error = caught(() =>
      createProvider({ provider: 'openrouter', model: 'm', apiKeyEnv: 'MY_ROUTER_KEY' }, deps()),
    );
    expect(error).toMatchObject({
      code: MISSING_API_KEY_CODE,
      details: { variables: ['MY_ROUTER_KEY'] },
    });
    expect((error as Error).message).toContain('MY_ROUTER_KEY');
  });

  it('resolves the API mode and builds that mode’s adapter with the entry’s options', () => {
    const chat = stubAdapter('chat-stub');
    const anthropic = stubAdapter('anthropic-stub');
    const adapters = { chat_completions: chat.Stub, anthropic_messages: anthropic.Stub };
    const fetchImpl: typeof fetch = (...args) => fetch(...args);
    const routed = createProvider(
      {
        provider: 'openrouter',
        model: 'anthropic/claude-sonnet-4.5',
        headers: { 'HTTP-Referer': 'https://example.test' },
        staleTimeoutMs: 5_000,
        modelLimits: { 'my-model': { contextWindow: 99_000 } },
      },
      deps({ env: { OPENROUTER_API_KEY: SECRET }, adapters, fetch: fetchImpl }),
    );
    expect(routed.apiMode).toBe('chat_completions');
    expect(chat.built).toEqual([
      {
        apiKey: SECRET,
        providerName: 'openrouter',
        baseUrl: KNOWN_BASE_URLS.openrouter,
        staleTimeoutMs: 5_000,
        defaultHeaders: { 'HTTP-Referer': 'https://example.test' },
        modelLimitOverrides: { 'my-model': { contextWindow: 99_000 } },
        fetch: fetchImpl,
      },
    ]);
    const claude = createProvider(
      { provider: 'anthropic', model: 'claude-sonnet-4-5', apiKey: 'ant-key-123456' },
      deps({ adapters }),
    );
    expect(claude.apiMode).toBe('anthropic_messages');
    expect(claude.describe()).toMatchObject({
      apiModeSource: 'provider',
      adapter: 'anthropic-stub',
    });
    expect(anthropic.built[0]).toEqual({ apiKey: 'ant-key-123456', providerName: 'anthropic' });
  });

  it('uses one plain adapter for one key and a pool for several', () => {
    const { Stub } = stubAdapter('stub');
    const adapters = { chat_completions: Stub };
    const single = createProvider(
      { provider: 'openai', model: 'gpt-4.1' },
      deps({ env: { OPENAI_API_KEY: 'sk-one-000000000000' }, adapters }),
    );
    expect(single.describe().keys).toEqual({
      count: 1,
      source: 'default_env',
      variables: ['OPENAI_API_KEY'],
    });
    const several = createProvider(
      { provider: 'openai', model: 'gpt-4.1', poolStrategy: 'round_robin' },
      deps({
        env: { OPENAI_API_KEY_1: 'sk-one-000000000000', OPENAI_API_KEY_2: 'sk-two-000000000000' },
        adapters,
      }),
    );
    expect(several.describe().keys).toMatchObject({ count: 2, poolStrategy: 'round_robin' });
    const explicit = createProvider(
      { provider: 'openai', model: 'gpt-4.1', credentials: [{ apiKey: 'sk-only-00000000000' }] },
      deps({ adapters }),
    );
    expect(explicit.describe().keys).toMatchObject({ count: 1, source: 'credentials' });
    expect(explicit.describe().keys.poolStrategy).toBe('fill_first');
  });

  it('answers through a pool, rotating to the second key on an auth failure', async () => {
    const auth = new ProviderError({ reason: 'auth', ...FAILURE_FLAGS.auth, message: '401' });
    const { Stub, calls } = stubAdapter('stub', [auth]);
    const created = createProvider(
      { provider: 'openai', model: 'gpt-4.1', apiKeyEnv: 'KEYS' },
      deps({
        env: { KEYS: 'sk-first-00000000000,sk-second-0000000000' },
        adapters: { chat_completions: Stub },
      }),
    );
    const response = await created.provider.chat({ ...ASK, model: created.model });
    expect(response.provider).toBe('openai');
    expect(calls.map((c) => c.apiKey)).toEqual(['sk-first-00000000000', 'sk-second-0000000000']);
  });

  it('retries transient failures with the configured attempts and an injected sleep', async () => {
    const limited = () =>
      new ProviderError({ reason: 'rate_limit', ...FAILURE_FLAGS.rate_limit, message: '429' });
    const { Stub, calls } = stubAdapter('stub', [limited(), limited(), limited()]);
    const waits: number[] = [];
    const retries: string[] = [];
    const created = createProvider(
      {
        provider: 'openai',
        model: 'gpt-4.1',
        apiKey: SECRET,
        retry: { maxAttempts: 2, baseMs: 10, maxMs: 40 },
      },
      deps({
        adapters: { chat_completions: Stub },
        sleep: (ms) => {
          waits.push(ms);
          return Promise.resolve();
        },
        random: () => 0,
        onRetry: (info) => retries.push(`${info.target.provider}#${info.attempt}`),
      }),
    );
    await expect(created.provider.chat(ASK)).rejects.toMatchObject({ code: 'provider.rate_limit' });
    expect(calls).toHaveLength(2);
    expect(waits).toEqual([10]);
    expect(retries).toEqual(['openai#1']);
    expect(created.describe().retry).toEqual({ maxAttempts: 2, baseMs: 10, maxMs: 40 });
  });

  it('never retries an attempt that streamed any event, unless the entry opts in', async () => {
    const attempts: number[] = [];
    class ToolStreamer extends ModelProvider {
      readonly name = 'tool-streamer';
      chat(_request: ChatRequest, options: ChatOptions = {}): Promise<ChatResponse> {
        attempts.push(attempts.length + 1);
        options.onEvent?.({ type: 'tool_call_start', index: 0, id: 'call_1', name: 'read_file' });
        return Promise.reject(
          new ProviderError({
            reason: 'server_error',
            ...FAILURE_FLAGS.server_error,
            message: 'drop',
          }),
        );
      }
    }
    const config = { provider: 'openai', model: 'gpt-4.1', apiKey: SECRET };
    const strict = createProvider(config, deps({ adapters: { chat_completions: ToolStreamer } }));
    const seen: string[] = [];
    await expect(
      strict.provider.chat(ASK, { onEvent: (event) => seen.push(event.type) }),
    ).rejects.toMatchObject({ code: 'provider.server_error' });
    expect(attempts).toEqual([1]);
    expect(seen).toEqual(['tool_call_start']);

    attempts.length = 0;
    const lenient = createProvider(
      { ...config, retry: { retryAfterVisibleText: true } },
      deps({ adapters: { chat_completions: ToolStreamer } }),
    );
    await expect(lenient.provider.chat(ASK, { onEvent: () => undefined })).rejects.toBeDefined();
    expect(attempts).toEqual([1, 2, 3]);
  });

  it('wraps the primary in a fallback chain whose members are built on first need', async () => {
    const missing = new ProviderError({
      reason: 'model_not_found',
      ...FAILURE_FLAGS.model_not_found,
      message: '404',
    });
    const primary = stubAdapter('primary', [missing]);
    const backup = stubAdapter('backup');
    const activations: string[] = [];
    const created = createProvider(
      {
        provider: 'openrouter',
        model: 'first-model',
        apiKey: SECRET,
        fallback: [
          { provider: 'unset', model: 'never', apiKeyEnv: 'UNSET_KEY' },
          { provider: 'anthropic', model: 'claude-sonnet-4-5' },
        ],
      },
      deps({
        env: { ANTHROPIC_API_KEY: 'ant-key-123456' },
        adapters: { chat_completions: primary.Stub, anthropic_messages: backup.Stub },
        onFallback: (a) => activations.push(`${a.from.provider}->${a.to.provider}:${a.reason}`),
      }),
    );
    expect(created.provider).toBeInstanceOf(FallbackProvider);
    expect(backup.built).toHaveLength(0);
    const response = await created.provider.chat({ ...ASK, model: created.model });
    expect(response.provider).toBe('anthropic');
    expect(backup.calls).toEqual([{ apiKey: 'ant-key-123456', model: 'claude-sonnet-4-5' }]);
    expect(activations).toEqual(['openrouter->anthropic:model_not_found']);
    expect(created.describe().fallback).toEqual([
      { provider: 'unset', model: 'never' },
      { provider: 'anthropic', model: 'claude-sonnet-4-5' },
    ]);
  });

  it('describes what it built without any key', () => {
    const { Stub } = stubAdapter('stub');
    const created = createProvider(
      { provider: 'local-vllm', model: 'qwen3', baseUrl: 'http://127.0.0.1:9/v1', apiKey: SECRET },
      deps({ adapters: { chat_completions: Stub } }),
    );
    const description = created.describe();
    expect(description).toMatchObject({
      provider: 'local-vllm',
      model: 'qwen3',
      apiMode: 'chat_completions',
      apiModeSource: 'default',
      adapter: 'stub',
      baseUrl: 'http://127.0.0.1:9/v1',
      keys: { count: 1, source: 'apiKey' },
      fallback: [],
    });
    expect(JSON.stringify(description)).not.toContain(SECRET);
  });

  it('builds the real adapters by default', () => {
    const pooled = createProvider(
      {
        provider: 'openai',
        model: 'gpt-4.1',
        credentials: [{ apiKey: SECRET }, { apiKey: `${SECRET}x` }],
      },
      deps(),
    );
    expect(pooled.describe()).toMatchObject({ adapter: 'openai-chat', keys: { count: 2 } });
    const responses = createProvider({ provider: 'codex', model: 'gpt-5', apiKey: SECRET }, deps());
    expect(responses.describe()).toMatchObject({
      apiMode: 'codex_responses',
      adapter: 'openai-responses',
    });
    const claude = createProvider(
      {
        provider: 'my-proxy',
        model: 'claude-sonnet-4-5',
        baseUrl: 'https://api.anthropic.com',
        apiKey: SECRET,
      },
      deps(),
    );
    expect(claude.describe()).toMatchObject({
      apiMode: 'anthropic_messages',
      apiModeSource: 'base_url',
      adapter: 'anthropic-messages',
    });
  });
});
