import { ValidationError } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { parseFallbackChain } from '../src/fallback/index.js';

describe('parseFallbackChain', () => {
  it('accepts an ordered list of provider and model, with optional baseUrl and apiKeyEnv', () => {
    const chain = parseFallbackChain([
      { provider: 'openrouter', model: 'anthropic/claude-sonnet-4.5' },
      {
        provider: 'local',
        model: 'qwen3-coder',
        baseUrl: 'http://127.0.0.1:8080/v1',
        apiKeyEnv: 'LOCAL_KEY',
      },
    ]);
    expect(chain.map((entry) => entry.provider)).toEqual(['openrouter', 'local']);
    expect(chain[1]?.baseUrl).toBe('http://127.0.0.1:8080/v1');
  });

  it('names every bad field', () => {
    let caught: unknown;
    try {
      parseFallbackChain([
        { provider: 'openrouter' },
        { provider: 'x', model: 'y', baseUrl: 'ftp://example.com', apiKeyEnv: 'not a var' },
      ]);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ValidationError);
    const paths = (caught as ValidationError).issues.map((issue) => issue.path);
    expect(paths).toEqual(['[0].model', '[1].baseUrl', '[1].apiKeyEnv']);
    expect((caught as Error).message).toContain('fallback chain');
  });

  it('takes a member’s own credential pool, but not together with apiKeyEnv', () => {
    const [entry] = parseFallbackChain([
      {
        provider: 'openrouter',
        model: 'm',
        credentials: [{ apiKey: 'sk-stored-000000000001', source: 'file' }],
        poolStrategy: 'round_robin',
      },
    ]);
    expect(entry?.credentials?.[0]?.source).toBe('file');
    expect(entry?.poolStrategy).toBe('round_robin');
    expect(() =>
      parseFallbackChain([
        {
          provider: 'openrouter',
          model: 'm',
          apiKeyEnv: 'OPENROUTER_API_KEY',
          credentials: [{ apiKey: 'sk-stored-000000000001', source: 'file' }],
        },
      ]),
    ).toThrow(/\[0\]\.credentials: give one of apiKeyEnv or credentials, not both/);
  });

  it('rejects something that is not a list', () => {
    expect(() => parseFallbackChain({ provider: 'a', model: 'b' })).toThrow(ValidationError);
  });
});
