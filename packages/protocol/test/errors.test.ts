import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  HermesError,
  hasErrorCode,
  isHermesError,
  parseOrThrow,
  VALIDATION_ERROR_CODE,
  ValidationError,
} from '../src/index.js';
import { UsageSchema } from '../src/usage.js';

class RateLimited extends HermesError {
  constructor() {
    super('provider.rate_limited', 'Rate limited; retry after 5 s', { retryable: true });
  }
}

describe('HermesError', () => {
  it('carries a stable code, details, retryable flag and cause', () => {
    const cause = new Error('socket hang up');
    const error = new HermesError('provider.transport', 'Connection lost', {
      cause,
      details: { attempt: 2 },
    });
    expect(error.code).toBe('provider.transport');
    expect(error.details).toEqual({ attempt: 2 });
    expect(error.retryable).toBe(false);
    expect(error.cause).toBe(cause);
    expect(error.name).toBe('HermesError');
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: 'HermesError',
      code: 'provider.transport',
      message: 'Connection lost',
      retryable: false,
    });
  });

  it('names subclasses after themselves and keeps their code', () => {
    const error = new RateLimited();
    expect(error.name).toBe('RateLimited');
    expect(isHermesError(error)).toBe(true);
    expect(hasErrorCode(error, 'provider.rate_limited')).toBe(true);
    expect(hasErrorCode(error, 'provider.other')).toBe(false);
  });

  it('refuses a malformed code', () => {
    expect(() => new HermesError('Bad Code', 'x')).toThrow(/lower-case dotted words/);
    expect(() => new HermesError('nodot', 'x')).toThrow(TypeError);
  });

  it('is recognized across duplicated package copies, without instanceof', async () => {
    // A query string makes the module loader evaluate the file a second time: a true copy.
    const specifier = '../src/errors.ts?duplicate-copy';
    const copy = (await import(/* @vite-ignore */ specifier)) as typeof import('../src/errors.js');
    expect(copy.HermesError).not.toBe(HermesError);
    const foreign = new copy.HermesError('state.locked', 'Database is locked');
    expect(foreign instanceof HermesError).toBe(false);
    expect(isHermesError(foreign)).toBe(true);
    expect(copy.isHermesError(new HermesError('state.locked', 'x'))).toBe(true);
  });

  it('rejects look-alikes that only copy the shape', () => {
    const fake = Object.assign(new Error('x'), { code: 'state.locked' });
    expect(isHermesError(fake)).toBe(false);
    expect(isHermesError({ code: 'a.b', message: 'x' })).toBe(false);
    expect(isHermesError(null)).toBe(false);
    expect(isHermesError('state.locked')).toBe(false);
  });
});

describe('parseOrThrow', () => {
  it('returns parsed data on success', () => {
    const usage = {
      inputTokens: 1,
      outputTokens: 2,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
    };
    expect(parseOrThrow(UsageSchema, usage, 'usage')).toEqual(usage);
  });

  it('throws a ValidationError naming what, where, and how to fix it', () => {
    let caught: unknown;
    try {
      parseOrThrow(UsageSchema, { inputTokens: 'many' }, 'usage report', 'Report integers.');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ValidationError);
    expect(hasErrorCode(caught, VALIDATION_ERROR_CODE)).toBe(true);
    const error = caught as ValidationError;
    expect(error.message).toMatch(/^Invalid usage report:/);
    expect(error.message).toMatch(/inputTokens: /);
    expect(error.message).toMatch(/outputTokens: /);
    expect(error.message.endsWith('Report integers.')).toBe(true);
    expect(error.issues.map((i) => i.path)).toContain('inputTokens');
  });

  it('formats nested and indexed paths', () => {
    const schema = z.object({ items: z.array(z.object({ n: z.number() })) });
    expect(() => parseOrThrow(schema, { items: [{ n: 1 }, { n: 'x' }] }, 'list')).toThrow(
      /items\[1\]\.n: /,
    );
    expect(() => parseOrThrow(z.number(), 'x', 'count')).toThrow(/\(root\): /);
  });
});
