/** The Anthropic adapter's model metadata and option checking. */
import { script } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { AnthropicMessagesProvider } from '../src/adapters/anthropic-provider.js';
import { closeRigs, MODEL, SECRET_KEY, startRig } from './support/adapter-anthropic.js';

afterEach(closeRigs);

describe('anthropic-messages: models and options', () => {
  it('lists models with known limits and answers contextLength from overrides, listing and table', async () => {
    const { provider } = await startRig(script().models(MODEL, 'scripted-model'), {
      modelLimitOverrides: { 'my-local-claude': { contextWindow: 32_000 } },
    });
    expect(await provider.listModels()).toEqual([
      { id: MODEL, contextLength: 200_000, maxOutputTokens: 64_000 },
      { id: 'scripted-model' },
    ]);
    expect(provider.contextLength(MODEL)).toBe(200_000);
    expect(provider.contextLength('scripted-model')).toBeUndefined();
    expect(provider.contextLength('my-local-claude')).toBe(32_000);
  });

  it('rejects invalid options without echoing the key', () => {
    expect(() => new AnthropicMessagesProvider({ apiKey: '  ' })).toThrow(/apiKey/);
    const bad = () =>
      new AnthropicMessagesProvider({
        apiKey: SECRET_KEY,
        baseUrl: 'ftp://example.com',
        staleTimeoutMs: -1,
      });
    expect(bad).toThrow(/baseUrl[\s\S]*staleTimeoutMs/);
    try {
      bad();
    } catch (error) {
      expect(String(error)).not.toContain(SECRET_KEY);
      expect(JSON.stringify(error)).not.toContain(SECRET_KEY);
    }
  });
});
