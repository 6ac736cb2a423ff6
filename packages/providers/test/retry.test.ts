import { describe, expect, it } from 'vitest';
import { isAbortError } from '../src/abort.js';
import {
  type ClassifiedError,
  type FailureReason,
  isProviderError,
  ProviderError,
} from '../src/classified-error.js';
import { classifyApiError, FAILURE_FLAGS } from '../src/classify-error.js';
import {
  backoffDelay,
  callWithRetry,
  defaultSleep,
  type RetryInfo,
  type RetryOptions,
  retryDelay,
} from '../src/retry.js';
import { StreamTimeoutError } from '../src/stream/interruption.js';
import { StaleStreamError } from '../src/stream/stale-watchdog.js';

const verdict = (reason: FailureReason, extra: Partial<ClassifiedError> = {}): ClassifiedError => ({
  reason,
  ...FAILURE_FLAGS[reason],
  message: reason,
  ...extra,
});

/** A failure carrying the verdict the test wants the loop to see. */
class Fault extends Error {
  constructor(readonly classified: ClassifiedError) {
    super(classified.message);
  }
}
const classify = (e: unknown) => (e instanceof Fault ? e.classified : verdict('unknown'));

/** Records requested sleeps and returns at once: no real waiting. */
function harness(overrides: Partial<RetryOptions> = {}) {
  const sleeps: number[] = [];
  const retries: RetryInfo[] = [];
  const options: RetryOptions = {
    classify,
    random: () => 0,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    onRetry: (info) => retries.push(info),
    ...overrides,
  };
  return { sleeps, retries, options };
}

/** `fn` failing with the given verdicts in turn, then resolving 'ok'. */
function failing(...verdicts: ClassifiedError[]) {
  const attempts: number[] = [];
  const fn = async (attempt: number) => {
    attempts.push(attempt);
    const next = verdicts[attempt - 1];
    if (next !== undefined) throw new Fault(next);
    return 'ok';
  };
  return { fn, attempts };
}

describe('backoffDelay', () => {
  it('doubles from the base, jitter 0 at random() = 0', () => {
    expect([1, 2, 3, 4, 5].map((n) => backoffDelay(n, { random: () => 0 }))).toEqual([
      5_000, 10_000, 20_000, 40_000, 80_000,
    ]);
  });

  it('adds up to half the delay at random() → 1', () => {
    expect(backoffDelay(1, { random: () => 1 })).toBe(7_500);
    expect(backoffDelay(3, { random: () => 0.5 })).toBe(25_000);
  });

  it('caps the exponential part at max, jitter on top', () => {
    expect(backoffDelay(6, { random: () => 0 })).toBe(120_000);
    expect(backoffDelay(60, { random: () => 1 })).toBe(180_000);
    expect(backoffDelay(5_000, { random: () => 0 })).toBe(120_000);
    expect(backoffDelay(3, { baseMs: 100, maxMs: 250, random: () => 0 })).toBe(250);
  });

  it('treats attempt < 1 as the first', () => {
    expect(backoffDelay(0, { random: () => 0 })).toBe(5_000);
  });
});

describe('retryDelay', () => {
  it('waits at least what the service asked for', () => {
    expect(
      retryDelay(verdict('rate_limit', { retryAfterMs: 30_000 }), 1, { random: () => 0 }),
    ).toBe(30_000);
  });

  it('keeps the backoff when the service asked for less', () => {
    expect(retryDelay(verdict('rate_limit', { retryAfterMs: 1_000 }), 2, { random: () => 0 })).toBe(
      10_000,
    );
  });
});

describe('callWithRetry', () => {
  it('retries transient failures with growing delays and resolves', async () => {
    const { fn, attempts } = failing(verdict('overloaded'), verdict('server_error'));
    const { sleeps, retries, options } = harness();
    await expect(callWithRetry(fn, options)).resolves.toBe('ok');
    expect(attempts).toEqual([1, 2, 3]);
    expect(sleeps).toEqual([5_000, 10_000]);
    expect(retries.map((r) => [r.attempt, r.delayMs, r.classified.reason])).toEqual([
      [1, 5_000, 'overloaded'],
      [2, 10_000, 'server_error'],
    ]);
  });

  it('gives up after maxAttempts calls (3 by default) with a ProviderError', async () => {
    const { fn, attempts } = failing(verdict('timeout'), verdict('timeout'), verdict('timeout'));
    const { sleeps, options } = harness();
    const error = await callWithRetry(fn, options).catch((e: unknown) => e);
    expect(attempts).toEqual([1, 2, 3]);
    expect(sleeps).toHaveLength(2);
    expect(isProviderError(error)).toBe(true);
    expect((error as ProviderError).code).toBe('provider.timeout');
    expect((error as ProviderError).cause).toBeInstanceOf(Fault);
  });

  it('honours maxAttempts', async () => {
    const { fn, attempts } = failing(...Array.from({ length: 9 }, () => verdict('unknown')));
    await expect(callWithRetry(fn, { ...harness().options, maxAttempts: 5 })).rejects.toThrow();
    expect(attempts).toEqual([1, 2, 3, 4, 5]);
  });

  it('honours retry-after', async () => {
    const { fn } = failing(verdict('rate_limit', { retryAfterMs: 42_000 }));
    const { sleeps, options } = harness();
    await callWithRetry(fn, options);
    expect(sleeps).toEqual([42_000]);
  });

  it('does not wait out a retry-after beyond its patience: the caller rotates instead', async () => {
    const { fn, attempts } = failing(verdict('rate_limit', { retryAfterMs: 300_000 }));
    const { sleeps, options } = harness();
    const error = await callWithRetry(fn, options).catch((e: unknown) => e);
    expect(attempts).toEqual([1]);
    expect(sleeps).toEqual([]);
    expect((error as ProviderError).classified.shouldRotateCredential).toBe(true);
    const patient = failing(verdict('rate_limit', { retryAfterMs: 300_000 }));
    await expect(callWithRetry(patient.fn, { ...options, maxRetryAfterMs: 600_000 })).resolves.toBe(
      'ok',
    );
  });

  it.each<FailureReason>([
    'auth',
    'auth_permanent',
    'billing',
    'model_not_found',
    'format_error',
    'context_overflow',
    'payload_too_large',
    'thinking_signature',
    'long_context_tier',
  ])('never resends unchanged after %s', async (reason) => {
    const { fn, attempts } = failing(verdict(reason));
    const { sleeps, options } = harness();
    const error = await callWithRetry(fn, options).catch((e: unknown) => e);
    expect(attempts).toEqual([1]);
    expect(sleeps).toEqual([]);
    expect((error as ProviderError).code).toBe(`provider.${reason}`);
  });

  it('does not retry once visible text has streamed, unless opted in', async () => {
    const first = failing(verdict('server_error'));
    await expect(
      callWithRetry(first.fn, { ...harness().options, hasStreamedVisibleText: () => true }),
    ).rejects.toThrow();
    expect(first.attempts).toEqual([1]);
    const second = failing(verdict('server_error'));
    const opted = { hasStreamedVisibleText: () => true, retryAfterVisibleText: true };
    await expect(callWithRetry(second.fn, { ...harness().options, ...opted })).resolves.toBe('ok');
    expect(second.attempts).toEqual([1, 2]);
  });

  it('treats a stream timeout that kept partial text as visible text streamed', async () => {
    const stall = (text: string) =>
      new StreamTimeoutError(new StaleStreamError(1_000, 1_200), text);
    const options = {
      ...harness().options,
      classify: (e: unknown) => classifyApiError(e, { provider: 'p', model: 'm' }),
    };
    let calls = 0;
    const shown = await callWithRetry(() => {
      calls += 1;
      return Promise.reject(stall('Hello, wor'));
    }, options).catch((e: unknown) => e);
    expect(calls).toBe(1);
    expect(shown).toBeInstanceOf(StreamTimeoutError);
    const silent = failing();
    const fn = (attempt: number) =>
      attempt === 1 ? Promise.reject(stall('')) : silent.fn(attempt);
    await expect(callWithRetry(fn, options)).resolves.toBe('ok');
  });

  it('rethrows an existing ProviderError as is', async () => {
    const original = new ProviderError(verdict('billing'));
    const error = await callWithRetry(() => Promise.reject(original), harness().options).catch(
      (e: unknown) => e,
    );
    expect(error).toBe(original);
  });

  it('does not retry an abort thrown by the call', async () => {
    let calls = 0;
    const fn = () => {
      calls += 1;
      return Promise.reject(new DOMException('aborted', 'AbortError'));
    };
    const error = await callWithRetry(fn, harness().options).catch((e: unknown) => e);
    expect(calls).toBe(1);
    expect(isAbortError(error)).toBe(true);
    expect((error as ProviderError).code).toBe('provider.aborted');
  });

  it('rejects promptly when aborted during a backoff sleep that never ends', async () => {
    const controller = new AbortController();
    const { fn, attempts } = failing(verdict('overloaded'));
    const options = harness({
      signal: controller.signal,
      // A sleep that ignores the signal: the loop itself must not wait for it.
      sleep: () => {
        queueMicrotask(() => controller.abort());
        return new Promise<void>(() => {});
      },
    }).options;
    const error = await callWithRetry(fn, options).catch((e: unknown) => e);
    expect(attempts).toEqual([1]);
    expect(isAbortError(error)).toBe(true);
  });

  it('does not call at all when already aborted', async () => {
    const { fn, attempts } = failing();
    const signal = AbortSignal.abort();
    await expect(callWithRetry(fn, { ...harness().options, signal })).rejects.toSatisfy(
      isAbortError,
    );
    expect(attempts).toEqual([]);
  });
});

describe('defaultSleep', () => {
  it('rejects with an abort error as soon as the signal aborts, long before the delay', async () => {
    const controller = new AbortController();
    const sleeping = defaultSleep(3_600_000, controller.signal);
    controller.abort();
    await expect(sleeping).rejects.toSatisfy(isAbortError);
  });

  it('rejects at once for an already-aborted signal and resolves otherwise', async () => {
    await expect(defaultSleep(10, AbortSignal.abort())).rejects.toSatisfy(isAbortError);
    await expect(defaultSleep(0)).resolves.toBeUndefined();
  });
});
