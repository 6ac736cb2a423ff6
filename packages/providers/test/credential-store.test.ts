import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ClassifiedError } from '../src/classified-error.js';
import {
  type CorruptStateReport,
  CredentialPool,
  type CredentialStateStore,
  credentialsFromEnv,
  defaultCredentialPoolPath,
  fingerprintKey,
  JsonFileCredentialStore,
} from '../src/credentials/index.js';

const HOUR = 3_600_000;
const ENV = {
  OPENAI_API_KEY: 'sk-env-primary-7f3a9c',
  OPENAI_API_KEY_2: 'sk-env-second-41b2d8',
  OPENAI_API_KEY_3: 'sk-env-third-99e0aa',
};

const rateLimited: ClassifiedError = {
  reason: 'rate_limit',
  retryable: true,
  shouldCompress: false,
  shouldRotateCredential: true,
  shouldFallback: true,
  status: 429,
  message: 'rate limited',
};
const revoked: ClassifiedError = { ...rateLimited, reason: 'auth_permanent', retryable: false };

function home(): string {
  const dir = process.env.HERMES_HOME;
  if (dir === undefined) throw new Error('the test setup provides HERMES_HOME');
  return dir;
}

function poolFile(): string {
  return join(home(), 'auth', 'credential-pool.json');
}

function openPool(now: () => number, store: CredentialStateStore = new JsonFileCredentialStore()) {
  return new CredentialPool({
    provider: 'openai',
    credentials: credentialsFromEnv(ENV, 'openai'),
    store,
    now,
  });
}

describe('JsonFileCredentialStore', () => {
  it('defaults to HERMES_HOME/auth/credential-pool.json', () => {
    expect(new JsonFileCredentialStore().path).toBe(poolFile());
    expect(defaultCredentialPoolPath({ HERMES_HOME: '/srv/hermes' })).toBe(
      '/srv/hermes/auth/credential-pool.json',
    );
  });

  it('survives a restart: a dead key stays dead and an unexpired cooldown holds', () => {
    let time = 1_700_000_000_000;
    const now = () => time;
    const before = openPool(now);
    before.lease().reportFailure(revoked); // primary: dead
    before.lease().reportFailure(rateLimited); // second: 1 h
    expect(before.lease().credential.label).toBe('OPENAI_API_KEY_3');

    time += HOUR / 2;
    const after = openPool(now);
    const status = after.status();
    expect(status.map((s) => s.status)).toEqual(['dead', 'exhausted', 'ok']);
    expect(status[1]?.cooldownUntil).toBe(1_700_000_000_000 + HOUR);
    expect(status.map((s) => s.useCount)).toEqual([1, 1, 1]);
    expect(after.lease().credential.label).toBe('OPENAI_API_KEY_3');

    time += HOUR / 2;
    const later = openPool(now);
    expect(later.status().map((s) => s.status)).toEqual(['dead', 'ok', 'ok']);
    expect(later.lease().credential.label).toBe('OPENAI_API_KEY_2');
  });

  it('stores fingerprints and health, never a key', () => {
    const pool = openPool(() => 1_700_000_000_000);
    pool.lease().reportFailure(rateLimited);
    const raw = readFileSync(poolFile(), 'utf8');
    for (const key of Object.values(ENV)) {
      expect(raw).not.toContain(key);
      expect(raw).toContain(fingerprintKey(key));
    }
    const parsed = JSON.parse(raw) as { version: number; providers: Record<string, unknown> };
    expect(parsed.version).toBe(1);
    expect(Object.keys(parsed.providers)).toEqual(['openai']);
    expect(statSync(poolFile()).mode & 0o777).toBe(0o600);
    // The atomic write leaves no temporary file behind.
    expect(readdirSync(join(home(), 'auth'))).toEqual(['credential-pool.json']);
  });

  it('keeps other providers when one provider saves', () => {
    const store = new JsonFileCredentialStore();
    store.save('anthropic', { credentials: [] });
    openPool(() => 0, store)
      .lease()
      .release();
    expect(store.load('anthropic')).toEqual({ credentials: [] });
    expect(store.load('openai')?.credentials).toHaveLength(3);
  });

  it('remembers a dead key that left the key list and comes back', () => {
    const now = () => 1_700_000_000_000;
    const store = new JsonFileCredentialStore();
    openPool(now, store).lease().reportFailure(revoked);
    const without = new CredentialPool({
      provider: 'openai',
      credentials: [{ apiKey: ENV.OPENAI_API_KEY_2 }],
      store,
      now,
    });
    without.lease().reportSuccess();
    expect(openPool(now, store).status()[0]?.status).toBe('dead');
  });

  it('does not forget a dead key saved by another pool in the meantime', () => {
    const now = () => 1_700_000_000_000;
    const store = new JsonFileCredentialStore();
    const other = new CredentialPool({
      provider: 'openai',
      credentials: [{ apiKey: ENV.OPENAI_API_KEY_3 }],
      store,
      now,
    });
    openPool(now, store).lease().reportFailure(revoked);
    other.lease().reportSuccess();
    expect(openPool(now, store).status()[0]?.status).toBe('dead');
  });

  it('moves a corrupt file aside, reports it, and starts fresh', () => {
    mkdirSync(join(home(), 'auth'), { recursive: true });
    writeFileSync(poolFile(), '{ "version": 1, "providers": { "openai": ');
    const reports: CorruptStateReport[] = [];
    const store = new JsonFileCredentialStore({
      now: () => 1234,
      onCorrupt: (report) => reports.push(report),
    });
    const pool = openPool(() => 0, store);
    expect(pool.status().every((s) => s.status === 'ok')).toBe(true);
    expect(reports).toHaveLength(1);
    expect(reports[0]?.movedTo).toBe(`${poolFile()}.corrupt-1234`);
    expect(reports[0]?.problem).toMatch(/not valid JSON/);
    expect(readFileSync(`${poolFile()}.corrupt-1234`, 'utf8')).toContain('"providers"');
    pool.lease().release();
    expect(JSON.parse(readFileSync(poolFile(), 'utf8'))).toMatchObject({ version: 1 });
  });

  it('treats a file of the wrong shape as corrupt too', () => {
    mkdirSync(join(home(), 'auth'), { recursive: true });
    const bad = { version: 1, providers: { openai: { credentials: [{ fingerprint: 'nope' }] } } };
    writeFileSync(poolFile(), JSON.stringify(bad));
    const reports: CorruptStateReport[] = [];
    const store = new JsonFileCredentialStore({ onCorrupt: (r) => reports.push(r) });
    expect(store.load('openai')).toBeUndefined();
    expect(reports[0]?.problem).toMatch(/providers\.openai\.credentials\.0/);
    expect(existsSync(poolFile())).toBe(false);
  });

  it('keeps working from memory when the store fails', () => {
    const errors: unknown[] = [];
    const failing: CredentialStateStore = {
      load: () => {
        throw new Error('disk on fire');
      },
      save: () => {
        throw new Error('disk full');
      },
    };
    const pool = new CredentialPool({
      provider: 'openai',
      credentials: credentialsFromEnv(ENV, 'openai'),
      store: failing,
      onStoreError: (error) => errors.push(error),
    });
    pool.lease().reportFailure(rateLimited);
    expect(pool.lease().credential.label).toBe('OPENAI_API_KEY_2');
    expect(errors.map((e) => (e as Error).message)).toContain('disk on fire');
    expect(errors.map((e) => (e as Error).message)).toContain('disk full');
  });
});
