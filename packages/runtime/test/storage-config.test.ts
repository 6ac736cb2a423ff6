/**
 * The `storage:` section: SQLite by default, PostgreSQL with a URL from config.yaml or
 * `HERMES_DATABASE_URL` (which wins), one schema per profile, and clear errors for what cannot
 * work — without ever echoing a password.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isHermesError } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { loadHermesConfig, schemaOf, usesPostgres } from '../src/index.ts';

const home = () => process.env.HERMES_HOME as string;

function writeConfig(text: string, dir = home()): void {
  writeFileSync(join(dir, 'config.yaml'), text);
}

const load = (env: Record<string, string | undefined> = {}, hermesHome = home()) =>
  loadHermesConfig({ hermesHome, env });

async function failure(env: Record<string, string | undefined> = {}): Promise<string> {
  const error = await load(env).catch((e: unknown) => e);
  expect(isHermesError(error) && error.code).toBe('config.invalid');
  return (error as Error).message;
}

describe('storage:', () => {
  it('is SQLite when absent', async () => {
    const config = await load();
    expect(config.storage).toEqual({ backend: 'sqlite' });
    expect(usesPostgres(config)).toBe(false);
  });

  it('selects PostgreSQL from config.yaml, with the schema of the default profile', async () => {
    writeConfig(
      'storage:\n  backend: postgres\n  url: postgres://hermes:pw@db.internal:5432/hermes\n  pool_size: 4\n',
    );
    const config = await load();
    expect(config.storage).toEqual({
      backend: 'postgres',
      url: 'postgres://hermes:pw@db.internal:5432/hermes',
      schema: undefined,
      poolSize: 4,
    });
    if (!usesPostgres(config)) throw new Error('expected postgres');
    expect(schemaOf(config, config.storage)).toBe('hermes');
  });

  it('takes HERMES_DATABASE_URL over storage.url, and it alone selects PostgreSQL', async () => {
    const env = { HERMES_DATABASE_URL: 'postgres://u@10.0.0.5/h' };
    expect((await load(env)).storage).toMatchObject({
      backend: 'postgres',
      url: env.HERMES_DATABASE_URL,
    });
    writeConfig('storage:\n  backend: postgres\n  url: postgres://file@x/y\n');
    expect((await load(env)).storage).toMatchObject({ url: env.HERMES_DATABASE_URL });
    writeConfig('storage:\n  backend: sqlite\n');
    expect((await load(env)).storage).toEqual({ backend: 'sqlite' });
  });

  it('gives a named profile a schema of its own, and storage.schema wins', async () => {
    const profile = join(home(), 'profiles', 'Work-Team');
    mkdirSync(profile, { recursive: true });
    writeConfig('storage:\n  backend: postgres\n  url: postgres://u@h/d\n', profile);
    const config = await load({}, profile);
    if (!usesPostgres(config)) throw new Error('expected postgres');
    expect(schemaOf(config, config.storage)).toBe('hermes_work_team');
    writeConfig(
      'storage:\n  backend: postgres\n  url: postgres://u@h/d\n  schema: shared\n',
      profile,
    );
    const pinned = await load({}, profile);
    if (!usesPostgres(pinned)) throw new Error('expected postgres');
    expect(schemaOf(pinned, pinned.storage)).toBe('shared');
  });

  it('names what is wrong: no URL, a URL that is not postgres://, a bad schema, a typo', async () => {
    writeConfig('storage:\n  backend: postgres\n');
    expect(await failure()).toMatch(/storage\.url.*HERMES_DATABASE_URL/s);
    writeConfig('storage:\n  backend: postgres\n  url: mysql://root:hunter2@h/d\n');
    const bad = await failure();
    expect(bad).toMatch(/storage\.url.*postgres:\/\//s);
    expect(bad).not.toContain('hunter2');
    writeConfig('storage:\n  backend: postgres\n  url: postgres://u@h/d\n  schema: Bad-Name\n');
    expect(await failure()).toMatch(/storage\.schema/);
    writeConfig('storage:\n  backend: postgres\n  url: postgres://u@h/d\n  pool: 3\n');
    expect(await failure()).toMatch(/pool/);
    writeConfig('');
    expect(await failure({ HERMES_DATABASE_URL: 'http://nope' })).toMatch(
      /HERMES_DATABASE_URL must be/,
    );
  });
});
