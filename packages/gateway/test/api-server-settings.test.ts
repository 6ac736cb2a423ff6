import { hasErrorCode } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { API_SERVER_DEFAULTS, ApiServerAdapter, resolveApiServerSettings } from '../src/index.js';

describe('api_server settings', () => {
  it("applies Hermes' defaults: loopback, 8642, hermes-agent, 10 runs, 10 MiB, no CORS", () => {
    const settings = resolveApiServerSettings({ enabled: true, key: 'k'.repeat(16) });
    expect(settings).toEqual({ ...API_SERVER_DEFAULTS, key: 'k'.repeat(16) });
    expect(settings).toMatchObject({
      host: '127.0.0.1',
      port: 8642,
      modelName: 'hermes-agent',
      maxConcurrentRuns: 10,
      maxBodyBytes: 10 * 1024 * 1024,
      corsOrigins: [],
    });
  });

  it('reads every key, and cors_origins as a list or a comma-separated string', () => {
    const settings = resolveApiServerSettings({
      host: '0.0.0.0',
      port: '9000',
      key: 'a-long-enough-key-123',
      model_name: 'my-hermes',
      cors_origins: 'http://localhost:3000, http://127.0.0.1:3000/',
      max_concurrent_runs: 0,
      max_body_bytes: 1024,
    });
    expect(settings).toEqual({
      host: '0.0.0.0',
      port: 9000,
      key: 'a-long-enough-key-123',
      modelName: 'my-hermes',
      corsOrigins: ['http://localhost:3000', 'http://127.0.0.1:3000'],
      maxConcurrentRuns: 0,
      maxBodyBytes: 1024,
    });
    expect(resolveApiServerSettings({ cors_origins: ['https://a.example'] }).corsOrigins).toEqual([
      'https://a.example',
    ]);
  });

  it('names every bad key', () => {
    expect(() => resolveApiServerSettings({ port: 70_000, max_body_bytes: -1 })).toThrow(
      /port[\s\S]*max_body_bytes/,
    );
  });

  it('refuses to build a server without a key, or with one shorter than 16 characters', () => {
    const missing = (() => {
      try {
        new ApiServerAdapter({ settings: resolveApiServerSettings({}) });
      } catch (error) {
        return error;
      }
    })();
    expect(hasErrorCode(missing, 'gateway.api_key_missing')).toBe(true);
    expect((missing as Error).message).toMatch(/API_SERVER_KEY/);

    const short = (() => {
      try {
        new ApiServerAdapter({ settings: resolveApiServerSettings({ key: '0123456789abcde' }) });
      } catch (error) {
        return error;
      }
    })();
    expect(hasErrorCode(short, 'gateway.api_key_too_short')).toBe(true);
    expect((short as Error).message).toMatch(/15 characters.*at least 16/);

    expect(
      () =>
        new ApiServerAdapter({ settings: resolveApiServerSettings({ key: '0123456789abcdef' }) }),
    ).not.toThrow();
  });

  it('treats a blank key as missing', () => {
    expect(resolveApiServerSettings({ key: '   ' }).key).toBeUndefined();
  });
});
