import { hasErrorCode } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { resolveApiMode } from '../src/api-mode.js';

describe('resolveApiMode', () => {
  it('lets an explicit mode win over name and URL', () => {
    expect(
      resolveApiMode({
        apiMode: 'codex_responses',
        provider: 'anthropic',
        baseUrl: 'https://api.anthropic.com',
      }),
    ).toEqual({ mode: 'codex_responses', source: 'explicit' });
  });

  it('rejects an unknown explicit mode with the valid choices', () => {
    let caught: unknown;
    try {
      resolveApiMode({ apiMode: 'messages' });
    } catch (error) {
      caught = error;
    }
    expect(hasErrorCode(caught, 'provider.invalid_api_mode')).toBe(true);
    expect((caught as Error).message).toContain('chat_completions, codex_responses');
  });

  it('maps provider names before looking at the URL', () => {
    expect(resolveApiMode({ provider: 'Anthropic', baseUrl: 'http://127.0.0.1:9' })).toEqual({
      mode: 'anthropic_messages',
      source: 'provider',
    });
    expect(resolveApiMode({ provider: 'openai-codex' }).mode).toBe('codex_responses');
  });

  it('uses the base-URL heuristic for unnamed providers', () => {
    expect(resolveApiMode({ provider: 'custom', baseUrl: 'https://api.anthropic.com/v1' })).toEqual(
      { mode: 'anthropic_messages', source: 'base_url' },
    );
    expect(resolveApiMode({ baseUrl: 'https://notanthropic.com.evil.test' }).mode).toBe(
      'chat_completions',
    );
  });

  it('defaults to chat_completions for OpenAI-compatible endpoints and bad URLs', () => {
    expect(
      resolveApiMode({ provider: 'openrouter', baseUrl: 'https://openrouter.ai/api/v1' }),
    ).toEqual({ mode: 'chat_completions', source: 'default' });
    expect(resolveApiMode({ baseUrl: 'not a url' }).mode).toBe('chat_completions');
    expect(resolveApiMode({}).mode).toBe('chat_completions');
  });
});
