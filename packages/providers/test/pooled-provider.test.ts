import { describe, expect, it } from 'vitest';
import { isAbortError } from '../src/abort.js';
import type { ChatOptions, ChatRequest } from '../src/chat-request.js';
import type { ChatResponse } from '../src/chat-response.js';
import {
  type ClassifiedError,
  type FailureReason,
  ProviderError,
} from '../src/classified-error.js';
import { FAILURE_FLAGS } from '../src/classify-error.js';
import {
  type CredentialInput,
  CredentialPool,
  MemoryCredentialStore,
  NO_CREDENTIALS_CODE,
} from '../src/credentials/index.js';
import { ModelProvider } from '../src/model-provider.js';
import { PooledProvider, PROBE_API_KEY } from '../src/pooled-provider.js';
import { describeModelProviderContract } from '../src/testing.js';
import { answerOf, streamPartialText } from './support/provider-doubles.js';
import { ScriptedProvider } from './support/scripted-provider.js';

function failure(reason: FailureReason): ClassifiedError {
  return { reason, ...FAILURE_FLAGS[reason], message: `simulated ${reason}` };
}

type Behaviour =
  | { readonly answer: string }
  | { readonly fail: FailureReason; readonly streamFirst?: boolean }
  | { readonly raw: unknown }
  | { readonly hang: true };

/** An adapter double that behaves per API key, as a real service would per account. */
class KeyedAdapter extends ModelProvider {
  readonly name = 'keyed';
  closed = 0;

  constructor(
    readonly apiKey: string,
    private readonly behaviours: Map<string, Behaviour>,
    private readonly calls: string[],
  ) {
    super();
  }

  chat(request: ChatRequest, options: ChatOptions = {}): Promise<ChatResponse> {
    this.calls.push(this.apiKey);
    const behaviour = this.behaviours.get(this.apiKey) ?? { answer: `answer from ${this.apiKey}` };
    if ('hang' in behaviour) {
      return new Promise((_, reject) => {
        options.signal?.addEventListener('abort', () => reject(options.signal?.reason), {
          once: true,
        });
      });
    }
    if ('raw' in behaviour) return Promise.reject(behaviour.raw);
    if ('fail' in behaviour) {
      if (behaviour.streamFirst) streamPartialText(options);
      return Promise.reject(new ProviderError(failure(behaviour.fail)));
    }
    return Promise.resolve(answerOf(request, behaviour.answer, this.name));
  }

  override listModels() {
    const behaviour = this.behaviours.get(this.apiKey);
    if (behaviour !== undefined && 'fail' in behaviour) {
      return Promise.reject(new ProviderError(failure(behaviour.fail)));
    }
    return Promise.resolve([{ id: `model-of-${this.apiKey}` }]);
  }

  override contextLength(model: string): number {
    return model.length * 1000;
  }

  override close(): Promise<void> {
    this.closed += 1;
    return Promise.resolve();
  }
}

const KEYS: CredentialInput[] = [
  { apiKey: 'key-one-0001', label: 'one' },
  { apiKey: 'key-two-0002', label: 'two' },
  { apiKey: 'key-three-0003', label: 'three' },
];

const REQUEST: ChatRequest = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };

function setup(behaviours: Record<string, Behaviour> = {}, keys = KEYS) {
  const calls: string[] = [];
  const built: KeyedAdapter[] = [];
  const map = new Map(Object.entries(behaviours));
  const pool = new CredentialPool({
    provider: 'test',
    credentials: keys,
    store: new MemoryCredentialStore(),
    now: () => 1_700_000_000_000,
  });
  const provider = new PooledProvider({
    pool,
    createAdapter: (apiKey) => {
      const adapter = new KeyedAdapter(apiKey, map, calls);
      built.push(adapter);
      return adapter;
    },
  });
  const statusOf = (label: string) => pool.status().find((s) => s.label === label);
  return { pool, provider, calls, built, statusOf };
}

describe('PooledProvider', () => {
  it('answers with the first key and reports the success', async () => {
    const { provider, calls, statusOf } = setup();
    const response = await provider.chat(REQUEST);
    expect(response.message.content).toBe('answer from key-one-0001');
    expect(calls).toEqual(['key-one-0001']);
    expect(statusOf('one')).toMatchObject({ status: 'ok', useCount: 1, activeLeases: 0 });
  });

  it('takes its name from the adapter, through a probe that sends nothing', () => {
    const { provider, built, calls } = setup();
    expect(provider.name).toBe('keyed');
    expect(built.map((a) => a.apiKey)).toEqual([PROBE_API_KEY]);
    expect(calls).toEqual([]);
  });

  it('rotates past a key rejected for auth and benches it', async () => {
    const { provider, calls, statusOf } = setup({ 'key-one-0001': { fail: 'auth' } });
    const response = await provider.chat(REQUEST);
    expect(response.message.content).toBe('answer from key-two-0002');
    expect(calls).toEqual(['key-one-0001', 'key-two-0002']);
    expect(statusOf('one')).toMatchObject({ status: 'exhausted', lastErrorReason: 'auth' });
    expect(statusOf('two')?.activeLeases).toBe(0);
    // The benched key stays out of the next call too.
    await provider.chat(REQUEST);
    expect(calls).toEqual(['key-one-0001', 'key-two-0002', 'key-two-0002']);
  });

  it('tries each key at most once per call, then rethrows the last failure', async () => {
    const { provider, calls } = setup({
      'key-one-0001': { fail: 'rate_limit' },
      'key-two-0002': { fail: 'billing' },
      'key-three-0003': { fail: 'auth' },
    });
    const error: unknown = await provider.chat(REQUEST).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).classified.reason).toBe('auth');
    expect(calls).toEqual(['key-one-0001', 'key-two-0002', 'key-three-0003']);
  });

  it('lets NoCredentialsError propagate, classified for fallback, once every key is benched', async () => {
    const { provider, calls } = setup({
      'key-one-0001': { fail: 'auth' },
      'key-two-0002': { fail: 'auth' },
      'key-three-0003': { fail: 'auth' },
    });
    await expect(provider.chat(REQUEST)).rejects.toBeInstanceOf(ProviderError);
    const error = await provider.chat(REQUEST).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: NO_CREDENTIALS_CODE,
      classified: { shouldFallback: true, shouldRotateCredential: false },
    });
    expect(calls).toHaveLength(3);
  });

  it('does not rotate on a failure that is not the key’s fault, and keeps the key', async () => {
    const { provider, calls, statusOf } = setup({ 'key-one-0001': { fail: 'server_error' } });
    await expect(provider.chat(REQUEST)).rejects.toMatchObject({
      classified: { reason: 'server_error' },
    });
    expect(calls).toEqual(['key-one-0001']);
    expect(statusOf('one')).toMatchObject({ status: 'ok', activeLeases: 0 });
  });

  it('marks a permanently rejected key dead without rotating (the flags say no rotation)', async () => {
    const { provider, calls, statusOf } = setup({ 'key-one-0001': { fail: 'auth_permanent' } });
    await expect(provider.chat(REQUEST)).rejects.toMatchObject({
      classified: { reason: 'auth_permanent' },
    });
    expect(calls).toEqual(['key-one-0001']);
    expect(statusOf('one')?.status).toBe('dead');
    await provider.chat(REQUEST);
    expect(calls).toEqual(['key-one-0001', 'key-two-0002']);
  });

  it('never rotates once the failed attempt streamed output, but still benches the key', async () => {
    const { provider, calls, statusOf } = setup({
      'key-one-0001': { fail: 'rate_limit', streamFirst: true },
    });
    const seen: string[] = [];
    const error = await provider
      .chat({ ...REQUEST, stream: true }, { onEvent: (e) => seen.push(e.type) })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ classified: { reason: 'rate_limit' } });
    expect(seen).toEqual(['text_start', 'text_delta']);
    expect(calls).toEqual(['key-one-0001']);
    expect(statusOf('one')?.status).toBe('exhausted');
  });

  it('classifies a raw failure itself and rethrows it unchanged', async () => {
    const raw = Object.assign(new Error('Incorrect API key provided'), { status: 401 });
    const { provider, calls, statusOf } = setup({ 'key-one-0001': { raw } });
    const response = await provider.chat(REQUEST);
    expect(response.message.content).toBe('answer from key-two-0002');
    expect(calls).toEqual(['key-one-0001', 'key-two-0002']);
    expect(statusOf('one')?.lastErrorReason).toBe('auth');
  });

  it('releases the key without a verdict when the caller aborts', async () => {
    const { provider, statusOf } = setup({ 'key-one-0001': { hang: true } });
    const controller = new AbortController();
    const pending = provider.chat(REQUEST, { signal: controller.signal });
    controller.abort();
    const error = await pending.catch((e: unknown) => e);
    expect(isAbortError(error)).toBe(true);
    expect(statusOf('one')).toMatchObject({ status: 'ok', activeLeases: 0 });
    expect(statusOf('one')?.lastErrorReason).toBeUndefined();
  });

  it('builds one adapter per key and reuses it', async () => {
    const { provider, built } = setup({ 'key-one-0001': { fail: 'auth' } });
    await provider.chat(REQUEST);
    await provider.chat(REQUEST);
    await provider.chat(REQUEST);
    expect(built.map((a) => a.apiKey)).toEqual([PROBE_API_KEY, 'key-one-0001', 'key-two-0002']);
  });

  it('lists models with a leased key and benches a key the listing rejects', async () => {
    const { provider, statusOf } = setup({ 'key-one-0001': { fail: 'auth' } });
    await expect(provider.listModels()).rejects.toMatchObject({ classified: { reason: 'auth' } });
    expect(statusOf('one')?.status).toBe('exhausted');
    expect(await provider.listModels()).toEqual([{ id: 'model-of-key-two-0002' }]);
    expect(statusOf('two')?.activeLeases).toBe(0);
  });

  it('delegates contextLength and closes every adapter it built', async () => {
    const { provider, built } = setup();
    expect(provider.contextLength('abc')).toBe(3000);
    await provider.chat(REQUEST);
    await provider.close();
    expect(built.map((a) => a.closed)).toEqual([1, 1]);
  });

  it('rejects an already-aborted call before leasing', async () => {
    const { provider, statusOf } = setup();
    await expect(provider.chat(REQUEST, { signal: AbortSignal.abort() })).rejects.toSatisfy(
      isAbortError,
    );
    expect(statusOf('one')?.useCount).toBe(0);
  });
});

describeModelProviderContract('PooledProvider', ({ script }) => {
  const pool = new CredentialPool({
    provider: 'scripted',
    credentials: KEYS,
    store: new MemoryCredentialStore(),
  });
  return new PooledProvider({ pool, createAdapter: () => new ScriptedProvider(script) });
});
