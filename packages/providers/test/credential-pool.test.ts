import { isHermesError } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import type { ClassifiedError, FailureReason } from '../src/classified-error.js';
import { isProviderError } from '../src/classified-error.js';
import {
  type CredentialInput,
  CredentialPool,
  type CredentialPoolOptions,
  MemoryCredentialStore,
  NO_CREDENTIALS_CODE,
  NoCredentialsError,
  type PoolStrategy,
} from '../src/credentials/index.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

function failure(reason: FailureReason, extra: Partial<ClassifiedError> = {}): ClassifiedError {
  const rotating: FailureReason[] = ['auth', 'billing', 'rate_limit'];
  return {
    reason,
    retryable: reason === 'rate_limit',
    shouldCompress: false,
    shouldRotateCredential: rotating.includes(reason),
    shouldFallback: true,
    message: `simulated ${reason}`,
    ...extra,
  };
}

const KEYS: CredentialInput[] = [
  { apiKey: 'sk-alpha-0001', label: 'alpha' },
  { apiKey: 'sk-bravo-0002', label: 'bravo' },
  { apiKey: 'sk-charlie-0003', label: 'charlie' },
];

class Clock {
  time = 1_700_000_000_000;
  readonly now = (): number => this.time;
  advance(ms: number): void {
    this.time += ms;
  }
}

function makePool(overrides: Partial<CredentialPoolOptions> = {}) {
  const clock = new Clock();
  const pool = new CredentialPool({
    provider: 'openai',
    credentials: KEYS,
    store: new MemoryCredentialStore(),
    now: clock.now,
    ...overrides,
  });
  return { pool, clock };
}

/** Leases and releases `count` times, returning the labels in order. */
function sequence(pool: CredentialPool, count: number): string[] {
  return Array.from({ length: count }, () => {
    const lease = pool.lease();
    lease.reportSuccess();
    return lease.credential.label;
  });
}

describe('CredentialPool strategies', () => {
  it('fill_first keeps using the highest-priority key until it fails', () => {
    const { pool } = makePool();
    expect(pool.strategy).toBe('fill_first');
    expect(sequence(pool, 3)).toEqual(['alpha', 'alpha', 'alpha']);
    pool.lease().reportFailure(failure('rate_limit'));
    expect(sequence(pool, 2)).toEqual(['bravo', 'bravo']);
  });

  it('orders by priority (lower first) before input order', () => {
    const { pool } = makePool({
      credentials: [
        { apiKey: 'sk-low-prio', label: 'late', priority: 5 },
        { apiKey: 'sk-high-prio', label: 'early', priority: 1 },
      ],
    });
    expect(pool.status().map((s) => s.label)).toEqual(['early', 'late']);
    expect(sequence(pool, 1)).toEqual(['early']);
  });

  it('round_robin rotates through the usable keys and skips a benched one', () => {
    const { pool } = makePool({ strategy: 'round_robin' });
    expect(sequence(pool, 4)).toEqual(['alpha', 'bravo', 'charlie', 'alpha']);
    // The next pick would be bravo; bench it.
    const bravo = pool.lease();
    expect(bravo.credential.label).toBe('bravo');
    bravo.reportFailure(failure('rate_limit'));
    expect(sequence(pool, 3)).toEqual(['charlie', 'alpha', 'charlie']);
  });

  it('random picks by the injected random source', () => {
    const draws = [0.9, 0.1, 0.5, 0.99];
    const { pool } = makePool({ strategy: 'random', rng: () => draws.shift() ?? 0 });
    expect(sequence(pool, 4)).toEqual(['charlie', 'alpha', 'bravo', 'charlie']);
  });

  it('least_used picks the key with the fewest uses, priority breaking ties', () => {
    const { pool } = makePool({ strategy: 'least_used' });
    expect(sequence(pool, 4)).toEqual(['alpha', 'bravo', 'charlie', 'alpha']);
    expect(pool.status().map((s) => s.useCount)).toEqual([2, 1, 1]);
  });

  it('rejects an unknown strategy', () => {
    expect(() => makePool({ strategy: 'most_used' as PoolStrategy })).toThrow();
  });
});

describe('CredentialPool leases', () => {
  it('fill_first skips a leased key while an unleased usable key exists', () => {
    const { pool } = makePool();
    const first = pool.lease();
    const second = pool.lease();
    const third = pool.lease();
    expect([first, second, third].map((l) => l.credential.label)).toEqual([
      'alpha',
      'bravo',
      'charlie',
    ]);
    // Every key is leased once: the fewest-leases rule spreads a fourth caller to alpha again.
    const fourth = pool.lease();
    expect(fourth.credential.label).toBe('alpha');
    second.release();
    expect(pool.lease().credential.label).toBe('bravo');
    expect(pool.status().map((s) => s.activeLeases)).toEqual([2, 1, 1]);
  });

  it('least_used also steers away from leased keys', () => {
    const { pool } = makePool({ strategy: 'least_used' });
    const held = pool.lease();
    expect(held.credential.label).toBe('alpha');
    expect(pool.lease().credential.label).toBe('bravo');
  });

  it('round_robin keeps rotating regardless of leases', () => {
    const { pool } = makePool({ strategy: 'round_robin', credentials: KEYS.slice(0, 2) });
    const labels = [pool.lease(), pool.lease(), pool.lease()].map((l) => l.credential.label);
    expect(labels).toEqual(['alpha', 'bravo', 'alpha']);
  });

  it('release and reports are idempotent', () => {
    const { pool } = makePool();
    const lease = pool.lease();
    lease.release();
    lease.release();
    expect(pool.status()[0]?.activeLeases).toBe(0);
    expect(lease.reportFailure(failure('rate_limit')).action).toBe('cooldown');
    expect(lease.reportFailure(failure('auth_permanent')).action).toBe('kept');
    expect(pool.status()[0]?.status).toBe('exhausted');
    expect(pool.status()[0]?.activeLeases).toBe(0);
  });

  it('excludes ids on request', () => {
    const { pool } = makePool();
    expect(pool.lease({ excludeIds: [pool.status()[0]?.id ?? ''] }).credential.label).toBe('bravo');
  });

  it('never exposes the key through JSON or the status list', () => {
    const { pool } = makePool();
    const lease = pool.lease();
    expect(lease.apiKey).toBe('sk-alpha-0001');
    expect(JSON.stringify(lease)).not.toContain('sk-alpha-0001');
    expect(JSON.stringify(pool.status())).not.toContain('sk-');
    expect(pool.status()[0]?.fingerprint).toMatch(/^[0-9a-f]{12}$/);
  });
});

describe('CredentialPool failures and cooldowns', () => {
  it('benches a key for 5 minutes after an auth failure, then makes it usable again', () => {
    const { pool, clock } = makePool();
    const outcome = pool.lease().reportFailure(failure('auth', { status: 401 }));
    expect(outcome).toEqual({ action: 'cooldown', cooldownUntil: clock.time + 5 * MINUTE });
    const alpha = pool.status()[0];
    expect(alpha?.status).toBe('exhausted');
    expect(alpha?.lastErrorReason).toBe('auth');
    clock.advance(5 * MINUTE - 1);
    expect(sequence(pool, 1)).toEqual(['bravo']);
    clock.advance(1);
    expect(pool.status()[0]?.status).toBe('ok');
    expect(sequence(pool, 1)).toEqual(['alpha']);
  });

  it('benches a key for 1 hour after a rate limit or billing failure', () => {
    const { pool, clock } = makePool();
    const start = clock.time;
    expect(pool.lease().reportFailure(failure('rate_limit', { status: 429 }))).toEqual({
      action: 'cooldown',
      cooldownUntil: start + HOUR,
    });
    expect(pool.lease().reportFailure(failure('billing', { status: 402 }))).toEqual({
      action: 'cooldown',
      cooldownUntil: start + HOUR,
    });
    clock.advance(HOUR - 1);
    expect(sequence(pool, 1)).toEqual(['charlie']);
    clock.advance(1);
    expect(sequence(pool, 1)).toEqual(['alpha']);
  });

  it('lets a provider-supplied reset time win over the default', () => {
    const { pool, clock } = makePool();
    const outcome = pool
      .lease()
      .reportFailure(failure('rate_limit', { status: 402, retryAfterMs: 5 * MINUTE }));
    expect(outcome.cooldownUntil).toBe(clock.time + 5 * MINUTE);
    const auth = pool.lease().reportFailure(failure('auth', { retryAfterMs: 2 * HOUR }));
    expect(auth.cooldownUntil).toBe(clock.time + 2 * HOUR);
  });

  it('keeps the key when the failure is not its fault', () => {
    const { pool } = makePool();
    const outcome = pool.lease().reportFailure(failure('format_error', { shouldFallback: false }));
    expect(outcome).toEqual({ action: 'kept' });
    const overloaded = pool.lease().reportFailure(failure('overloaded'));
    expect(overloaded.action).toBe('kept');
    expect(pool.status()[0]).toMatchObject({ status: 'ok' });
    expect(pool.status()[0]?.lastErrorReason).toBeUndefined();
  });

  it('rotates on any failure the classifier marks shouldRotateCredential', () => {
    const { pool, clock } = makePool();
    const outcome = pool
      .lease()
      .reportFailure(failure('server_error', { shouldRotateCredential: true }));
    expect(outcome.cooldownUntil).toBe(clock.time + HOUR);
  });

  it('marks a key dead on auth_permanent and never hands it out again until reset', () => {
    const { pool, clock } = makePool();
    expect(pool.lease().reportFailure(failure('auth_permanent'))).toEqual({ action: 'dead' });
    clock.advance(365 * 24 * HOUR);
    expect(sequence(pool, 3)).toEqual(['bravo', 'bravo', 'bravo']);
    expect(pool.status()[0]?.status).toBe('dead');
    expect(pool.reset(pool.status()[0]?.id)).toBe(1);
    expect(pool.status()[0]).toMatchObject({ status: 'ok' });
    expect(sequence(pool, 1)).toEqual(['alpha']);
  });

  it('a success on a cooling key makes it usable at once', () => {
    const { pool } = makePool({ credentials: KEYS.slice(0, 1) });
    const inFlight = pool.lease();
    pool.lease().reportFailure(failure('rate_limit'));
    expect(pool.status()[0]?.status).toBe('exhausted');
    inFlight.reportSuccess();
    expect(pool.status()[0]).toMatchObject({ status: 'ok', activeLeases: 0 });
    expect(pool.status()[0]?.cooldownUntil).toBeUndefined();
  });

  it('caps a sole key throttle at one minute, but not its billing failure', () => {
    const { pool, clock } = makePool({ credentials: KEYS.slice(0, 1) });
    expect(pool.lease().reportFailure(failure('rate_limit')).cooldownUntil).toBe(
      clock.time + MINUTE,
    );
    clock.advance(MINUTE);
    expect(pool.lease().reportFailure(failure('billing')).cooldownUntil).toBe(clock.time + HOUR);
  });

  it('honours custom cooldown lengths', () => {
    const { pool, clock } = makePool({ cooldowns: { authMs: 1_000, defaultMs: 2_000 } });
    expect(pool.lease().reportFailure(failure('auth')).cooldownUntil).toBe(clock.time + 1_000);
    expect(pool.lease().reportFailure(failure('rate_limit')).cooldownUntil).toBe(
      clock.time + 2_000,
    );
  });
});

describe('CredentialPool when no key is usable', () => {
  it('throws provider.no_credentials saying when the earliest cooldown ends', () => {
    const { pool, clock } = makePool({ credentials: KEYS.slice(0, 2) });
    pool.lease().reportFailure(failure('rate_limit'));
    pool.lease().reportFailure(failure('auth'));
    let caught: unknown;
    try {
      pool.lease();
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(NoCredentialsError);
    expect(isHermesError(caught)).toBe(true);
    expect(isProviderError(caught)).toBe(true);
    const error = caught as NoCredentialsError;
    expect(error.code).toBe(NO_CREDENTIALS_CODE);
    const readyAt = new Date(clock.time + 5 * MINUTE).toISOString();
    expect(error.message).toContain(readyAt);
    expect(error.message).toContain('in 5m 0s');
    expect(error.message).not.toContain('sk-');
    expect(error.classified).toMatchObject({
      reason: 'auth',
      shouldFallback: true,
      retryAfterMs: 5 * MINUTE,
    });
  });

  it('names dead keys and an empty pool plainly', () => {
    const { pool } = makePool({ credentials: KEYS.slice(0, 1) });
    pool.lease().reportFailure(failure('auth_permanent'));
    expect(() => pool.lease()).toThrow(/1 rejected permanently/);
    const empty = makePool({ credentials: [] }).pool;
    expect(empty.size).toBe(0);
    expect(() => empty.lease()).toThrow(/No API key is configured for openai/);
  });

  it('keeps one record per distinct key and rejects duplicate ids', () => {
    const { pool } = makePool({
      credentials: [
        { apiKey: 'sk-same', label: 'first' },
        { apiKey: 'sk-same', label: 'twin' },
      ],
    });
    expect(pool.status().map((s) => s.label)).toEqual(['first']);
    expect(() =>
      makePool({
        credentials: [
          { apiKey: 'sk-one', id: 'main' },
          { apiKey: 'sk-two', id: 'main' },
        ],
      }),
    ).toThrow(/share the id "main"/);
    expect(() => makePool({ credentials: [{ apiKey: '  ' }] })).toThrow(/apiKey/);
  });
});
