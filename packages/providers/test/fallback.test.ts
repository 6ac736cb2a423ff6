import { describe, expect, it } from 'vitest';
import type { ChatOptions, ChatRequest } from '../src/chat-request.js';
import type { ChatResponse } from '../src/chat-response.js';
import {
  type ClassifiedError,
  type FailureReason,
  ProviderError,
} from '../src/classified-error.js';
import { CredentialPool, MemoryCredentialStore } from '../src/credentials/index.js';
import {
  type FallbackActivation,
  type FallbackEntry,
  FallbackProvider,
  type FallbackProviderOptions,
  fallbackTiming,
  type RetryingCall,
  warrantsFallback,
} from '../src/fallback/index.js';
import { ModelProvider } from '../src/model-provider.js';
import { answerOf, streamPartialText } from './support/provider-doubles.js';

function classified(reason: FailureReason, extra: Partial<ClassifiedError> = {}): ClassifiedError {
  return {
    reason,
    retryable: ['rate_limit', 'overloaded', 'server_error'].includes(reason),
    shouldCompress: reason === 'context_overflow',
    shouldRotateCredential: false,
    shouldFallback: true,
    message: `simulated ${reason}`,
    ...extra,
  };
}

type Step =
  | { readonly text: string }
  | { readonly fail: ClassifiedError; readonly streamFirst?: boolean };

/** A ModelProvider double at the seam: plays its steps in order, repeating the last one. */
class StepProvider extends ModelProvider {
  readonly requests: ChatRequest[] = [];
  closed = 0;

  constructor(
    readonly name: string,
    private readonly steps: Step[],
  ) {
    super();
  }

  chat(request: ChatRequest, options: ChatOptions = {}): Promise<ChatResponse> {
    this.requests.push(request);
    const step = this.steps.length > 1 ? this.steps.shift() : this.steps[0];
    if (step === undefined) throw new Error('no steps');
    if ('fail' in step) {
      if (step.streamFirst) streamPartialText(options);
      return Promise.reject(new ProviderError(step.fail));
    }
    return Promise.resolve(answerOf(request, step.text, this.name));
  }

  override close(): Promise<void> {
    this.closed += 1;
    return Promise.resolve();
  }
}

const CHAIN: FallbackEntry[] = [
  { provider: 'openrouter', model: 'anthropic/claude-sonnet-4.5' },
  { provider: 'deepseek', model: 'deepseek-chat' },
];

const REQUEST: ChatRequest = { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] };

function setup(
  primarySteps: Step[],
  memberSteps: Record<string, Step[]> = {},
  extra: Partial<FallbackProviderOptions> = {},
) {
  const primary = new StepProvider('openai', primarySteps);
  const members = new Map<string, StepProvider>();
  const built: string[] = [];
  const activations: FallbackActivation[] = [];
  const provider = new FallbackProvider({
    primary,
    chain: CHAIN,
    createProvider: (entry) => {
      built.push(entry.provider);
      const member = new StepProvider(
        entry.provider,
        memberSteps[entry.provider] ?? [{ text: `from ${entry.provider}` }],
      );
      members.set(entry.provider, member);
      return member;
    },
    onFallback: (activation) => activations.push(activation),
    ...extra,
  });
  return { provider, primary, members, built, activations };
}

describe('FallbackProvider', () => {
  it.each(['auth', 'auth_permanent', 'model_not_found', 'billing'] as const)(
    'falls back at once on %s and reports the answering member',
    async (reason) => {
      const { provider, primary, members, activations } = setup([{ fail: classified(reason) }]);
      const response = await provider.chat(REQUEST);
      expect(response.provider).toBe('openrouter');
      expect(response.message.content).toBe('from openrouter');
      expect(primary.requests).toHaveLength(1);
      expect(members.get('openrouter')?.requests[0]?.model).toBe('anthropic/claude-sonnet-4.5');
      expect(activations).toEqual([
        {
          from: { provider: 'openai', model: 'gpt-4o' },
          to: { provider: 'openrouter', model: 'anthropic/claude-sonnet-4.5' },
          reason,
        },
      ]);
      expect(provider.fallbackActive).toBe(true);
      expect(provider.current).toEqual({
        provider: 'openrouter',
        model: 'anthropic/claude-sonnet-4.5',
      });
    },
  );

  it.each([
    'format_error',
    'context_overflow',
    'payload_too_large',
    'thinking_signature',
    'aborted',
  ] as const)(
    'never falls back on %s, even when the classification asks for it',
    async (reason) => {
      const { provider, built, activations } = setup([{ fail: classified(reason) }]);
      await expect(provider.chat(REQUEST)).rejects.toMatchObject({ code: `provider.${reason}` });
      expect(built).toEqual([]);
      expect(activations).toEqual([]);
    },
  );

  it('does not fall back when the classification says not to, or on a foreign error', async () => {
    const { provider, built } = setup([
      { fail: classified('rate_limit', { shouldFallback: false }) },
    ]);
    await expect(provider.chat(REQUEST)).rejects.toMatchObject({ code: 'provider.rate_limit' });
    expect(built).toEqual([]);
    expect(warrantsFallback(new Error('plain'))).toBe(false);
    expect(fallbackTiming('rate_limit')).toBe('after_retries');
    expect(fallbackTiming('model_not_found')).toBe('immediate');
  });

  it('falls back on a rate limit only after the member retries are spent', async () => {
    const attempts: string[] = [];
    const retrying: RetryingCall = async (call, target) => {
      for (let attempt = 1; ; attempt += 1) {
        attempts.push(`${target.provider}/${target.model}#${attempt}`);
        try {
          return await call();
        } catch (error) {
          if (attempt === 3) throw error;
        }
      }
    };
    const limited = classified('rate_limit');
    const { provider, primary, activations } = setup(
      [{ fail: limited }, { fail: limited }, { fail: limited }],
      {},
      { retrying },
    );
    const response = await provider.chat(REQUEST);
    expect(primary.requests).toHaveLength(3);
    expect(attempts).toEqual([
      'openai/gpt-4o#1',
      'openai/gpt-4o#2',
      'openai/gpt-4o#3',
      'openrouter/anthropic/claude-sonnet-4.5#1',
    ]);
    expect(response.provider).toBe('openrouter');
    expect(activations.map((a) => a.reason)).toEqual(['rate_limit']);
  });

  it('stays on the primary when a retry recovers', async () => {
    const retrying: RetryingCall = (call) => call().catch(() => call());
    const { provider, built } = setup(
      [{ fail: classified('server_error') }, { text: 'ok' }],
      {},
      { retrying },
    );
    const response = await provider.chat(REQUEST);
    expect(response).toMatchObject({ provider: 'openai', message: { content: 'ok' } });
    expect(built).toEqual([]);
  });

  it('switches at most once per turn and keeps the fallback for the rest of the turn', async () => {
    const { provider, primary, members, activations } = setup([{ fail: classified('auth') }], {
      openrouter: [{ text: 'first' }, { fail: classified('auth') }],
    });
    expect((await provider.chat(REQUEST)).message.content).toBe('first');
    await expect(provider.chat(REQUEST)).rejects.toMatchObject({ code: 'provider.auth' });
    expect(primary.requests).toHaveLength(1);
    expect(members.get('openrouter')?.requests).toHaveLength(2);
    expect(members.has('deepseek')).toBe(false);
    expect(activations).toHaveLength(1);
  });

  it('does not switch twice in one turn when the fallback itself fails', async () => {
    const { provider, activations, built } = setup([{ fail: classified('auth') }], {
      openrouter: [{ fail: classified('model_not_found') }],
    });
    await expect(provider.chat(REQUEST)).rejects.toMatchObject({
      code: 'provider.model_not_found',
    });
    expect(built).toEqual(['openrouter']);
    expect(activations).toHaveLength(1);
  });

  it('restores the primary after beginTurn and may fall back again', async () => {
    const { provider, primary, built, activations } = setup([
      { fail: classified('auth') },
      { text: 'primary is back' },
      { fail: classified('billing') },
    ]);
    await provider.chat(REQUEST);
    provider.beginTurn();
    expect(provider.fallbackActive).toBe(false);
    expect(provider.current).toEqual({ provider: 'openai', model: 'gpt-4o' });
    expect(await provider.chat(REQUEST)).toMatchObject({
      provider: 'openai',
      message: { content: 'primary is back' },
    });
    provider.beginTurn();
    expect((await provider.chat(REQUEST)).provider).toBe('openrouter');
    expect(primary.requests).toHaveLength(3);
    expect(built).toEqual(['openrouter']); // built lazily, once, then reused
    expect(activations.map((a) => a.reason)).toEqual(['auth', 'billing']);
  });

  it('skips an entry whose provider cannot be built', async () => {
    const activations: FallbackActivation[] = [];
    const deepseek = new StepProvider('deepseek-adapter', [{ text: 'from deepseek' }]);
    const provider = new FallbackProvider({
      primary: new StepProvider('openai', [{ fail: classified('auth') }]),
      primaryModel: 'gpt-4.1',
      chain: CHAIN,
      createProvider: (entry) => {
        if (entry.provider === 'openrouter') throw new Error('OPENROUTER_API_KEY is not set');
        return deepseek;
      },
      onFallback: (activation) => activations.push(activation),
    });
    const response = await provider.chat(REQUEST);
    expect(response.provider).toBe('deepseek');
    expect(deepseek.requests[0]?.model).toBe('deepseek-chat');
    expect(activations[0]?.from).toEqual({ provider: 'openai', model: 'gpt-4.1' });
    expect(activations[0]?.to).toEqual({ provider: 'deepseek', model: 'deepseek-chat' });
  });

  it('rethrows the primary error when the chain is empty', async () => {
    const provider = new FallbackProvider({
      primary: new StepProvider('openai', [{ fail: classified('auth') }]),
      chain: [],
      createProvider: () => {
        throw new Error('never called');
      },
    });
    await expect(provider.chat(REQUEST)).rejects.toMatchObject({ code: 'provider.auth' });
  });

  it('does not fall back once the failed attempt streamed output', async () => {
    const provider = new FallbackProvider({
      primary: new StepProvider('openai', [{ fail: classified('rate_limit'), streamFirst: true }]),
      chain: CHAIN,
      createProvider: () => new StepProvider('x', [{ text: 'never' }]),
    });
    const events: string[] = [];
    const call = provider.chat(
      { ...REQUEST, stream: true },
      { onEvent: (e) => events.push(e.type) },
    );
    await expect(call).rejects.toMatchObject({ code: 'provider.rate_limit' });
    expect(events).toEqual(['text_start', 'text_delta']);
  });

  it('does not fall back after the caller aborted', async () => {
    const controller = new AbortController();
    const primary = new StepProvider('openai', [{ fail: classified('auth') }]);
    const original = primary.chat.bind(primary);
    primary.chat = (request, options) => {
      controller.abort();
      return original(request, options);
    };
    const { provider, built } = setup([], {}, { primary });
    await expect(provider.chat(REQUEST, { signal: controller.signal })).rejects.toMatchObject({
      code: 'provider.auth',
    });
    expect(built).toEqual([]);
  });

  it('falls back when the primary pool has no usable key', async () => {
    const pool = new CredentialPool({
      provider: 'openai',
      credentials: [{ apiKey: 'sk-only' }],
      store: new MemoryCredentialStore(),
    });
    pool.lease().reportFailure(classified('auth', { shouldRotateCredential: true }));
    class PooledProvider extends StepProvider {
      override chat(request: ChatRequest, options?: ChatOptions): Promise<ChatResponse> {
        const lease = pool.lease(); // throws provider.no_credentials
        lease.release();
        return super.chat(request, options);
      }
    }
    const { provider, activations } = setup(
      [],
      {},
      { primary: new PooledProvider('openai', [{ text: 'x' }]) },
    );
    expect((await provider.chat(REQUEST)).provider).toBe('openrouter');
    expect(activations[0]?.reason).toBe('auth');
  });

  it('survives an observer that throws', async () => {
    const { provider } = setup(
      [{ fail: classified('auth') }],
      {},
      {
        onFallback: () => {
          throw new Error('observer bug');
        },
      },
    );
    expect((await provider.chat(REQUEST)).provider).toBe('openrouter');
  });

  it('closes the primary and every member it built', async () => {
    const { provider, primary, members } = setup([{ fail: classified('auth') }]);
    await provider.chat(REQUEST);
    await provider.close();
    expect(primary.closed).toBe(1);
    expect(members.get('openrouter')?.closed).toBe(1);
    expect(provider.name).toBe('openai+fallback');
  });

  it('sends a concurrent call that failed on the primary to the fallback already chosen', async () => {
    const { provider, primary, activations } = setup([{ fail: classified('auth') }]);
    const [a, b] = await Promise.all([provider.chat(REQUEST), provider.chat(REQUEST)]);
    expect([a.provider, b.provider]).toEqual(['openrouter', 'openrouter']);
    expect(primary.requests).toHaveLength(2);
    expect(activations).toHaveLength(1);
  });
});
