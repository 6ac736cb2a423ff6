import { PostgresDatabase } from '@hermes/state/postgres';
import {
  createTestDatabase,
  NO_POSTGRES,
  postgresTestUrl,
  type TestDatabase,
} from '@hermes/testkit/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe.runIf(postgresTestUrl())(`PostgresDatabase ${NO_POSTGRES}`, () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db?.drop());

  it('creates its schema, puts tables in it and reads BIGINT as numbers', async () => {
    const database = await PostgresDatabase.connect({ url: db.url, schema: 'hermes_a' });
    await database.query('CREATE TABLE t (v BIGINT)');
    await database.query('INSERT INTO t VALUES ($1)', [1_764_000_000_000]);
    const rows = await database.query<{ v: number; s: string }>(
      'SELECT v, current_schema() AS s FROM t',
    );
    expect(rows).toEqual([{ v: 1_764_000_000_000, s: 'hermes_a' }]);
    const dedicated = await database.dedicatedClient();
    const seen = await dedicated.query<{ s: string }>('SELECT current_schema() AS s');
    expect(seen.rows[0]?.s).toBe('hermes_a');
    await dedicated.end();
    await database.close();
    await database.close();
  });

  it('applies each migration once, even with two processes migrating at the same time', async () => {
    const steps = [
      { version: 2, name: 'two', sql: 'ALTER TABLE m ADD COLUMN b INTEGER' },
      { version: 1, name: 'one', sql: 'CREATE TABLE m (a INTEGER)' },
    ];
    const [a, b] = await Promise.all([
      PostgresDatabase.connect({ url: db.url, schema: 'hermes_m' }),
      PostgresDatabase.connect({ url: db.url, schema: 'hermes_m' }),
    ]);
    const applied = await Promise.all([a.migrate('test', steps), b.migrate('test', steps)]);
    expect(applied.flat()).toEqual(['test 1 one', 'test 2 two']);
    expect(await a.migrate('test', steps)).toEqual([]);
    await Promise.all([a.close(), b.close()]);
  });

  it('rejects a bad schema name and an unreachable server with clear errors, password hidden', async () => {
    await expect(PostgresDatabase.connect({ url: db.url, schema: 'Bad-Name' })).rejects.toThrow(
      /schema "Bad-Name" is not usable/,
    );
    const err = await PostgresDatabase.connect({
      url: 'postgres://u:s3cret@127.0.0.1:1/x',
    }).catch((e: unknown) => e as Error);
    expect((err as Error).message).toMatch(
      /Cannot use PostgreSQL at postgres:\/\/u:\*\*\*@127\.0\.0\.1:1\/x/,
    );
    expect((err as Error).message).not.toContain('s3cret');
  });
});
