import { createTestDatabase, NO_POSTGRES, postgresTestUrl } from '@hermes/testkit/postgres';
import pg from 'pg';
import { describe, expect, it } from 'vitest';

describe.runIf(postgresTestUrl())(`createTestDatabase ${NO_POSTGRES}`, () => {
  it('creates an empty database of its own, with pg_trgm available, and drops it', async () => {
    const db = await createTestDatabase();
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const { rows } = await client.query<{ name: string }>('SELECT current_database() AS name');
    expect(rows[0]?.name).toBe(db.name);
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    await client.end();
    await db.drop();
    await db.drop();
    const admin = new pg.Client({ connectionString: postgresTestUrl() });
    await admin.connect();
    const left = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [db.name]);
    await admin.end();
    expect(left.rowCount).toBe(0);
  });
});
