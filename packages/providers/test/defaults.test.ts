import { describe, expect, it } from 'vitest';
import {
  type ChatRequest,
  type ChatResponse,
  isAbortError,
  ModelProvider,
  PROVIDER_ABORTED_CODE,
  throwIfAborted,
} from '../src/index.js';

/** Implements only the required members. */
class RequiredOnlyProvider extends ModelProvider {
  readonly name = 'required-only';

  chat(request: ChatRequest): Promise<ChatResponse> {
    return Promise.resolve({
      message: { role: 'assistant', content: 'ok' },
      finishReason: 'stop',
      usage: {
        inputTokens: 0,
        outputTokens: 0,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        reasoningTokens: 0,
      },
      model: request.model,
      provider: this.name,
    });
  }
}

describe('ModelProvider optional members', () => {
  it('have safe defaults for a provider that implements only the required members', async () => {
    const provider = new RequiredOnlyProvider();
    await expect(provider.listModels()).resolves.toEqual([]);
    expect(provider.contextLength('any-model')).toBeUndefined();
    await expect(provider.close()).resolves.toBeUndefined();
    await expect(provider.close()).resolves.toBeUndefined();
  });
});

describe('throwIfAborted and isAbortError', () => {
  it('does nothing without a signal or with a live one', () => {
    expect(() => throwIfAborted(undefined)).not.toThrow();
    expect(() => throwIfAborted(new AbortController().signal)).not.toThrow();
  });

  it('rethrows a default abort reason as is', () => {
    const controller = new AbortController();
    controller.abort();
    let caught: unknown;
    try {
      throwIfAborted(controller.signal);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBe(controller.signal.reason);
    expect(isAbortError(caught)).toBe(true);
  });

  it('wraps a non-error reason in a provider.aborted HermesError', () => {
    const controller = new AbortController();
    controller.abort('user pressed ctrl-c');
    expect(() => throwIfAborted(controller.signal)).toThrow(
      expect.objectContaining({ code: PROVIDER_ABORTED_CODE, cause: 'user pressed ctrl-c' }),
    );
  });

  it('does not mistake ordinary errors for aborts', () => {
    expect(isAbortError(new Error('boom'))).toBe(false);
    expect(isAbortError('AbortError')).toBe(false);
    expect(isAbortError(null)).toBe(false);
  });
});
