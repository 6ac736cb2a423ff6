/** The shared search cases (search-cases.ts) on PostgreSQL, plus what only PostgreSQL has. */
import { PostgresDatabase, PostgresSessionStore } from '@hermes/state/postgres';
import {
  createTestDatabase,
  NO_POSTGRES,
  postgresTestUrl,
  type TestDatabase,
} from '@hermes/testkit/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeSearchCases } from './search-cases.js';

describe.runIf(postgresTestUrl())(`PostgresSessionStore.search ${NO_POSTGRES}`, () => {
  let db: TestDatabase;
  let counter = 0;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db?.drop());

  // A schema per case: search is global, so cases must not see each other's rows.
  describeSearchCases('postgres', () =>
    PostgresSessionStore.connect({ url: db.url, schema: `search_${++counter}`, poolSize: 2 }),
  );

  it('uses the GIN indexes for word and substring queries', async () => {
    const database = await PostgresDatabase.connect({ url: db.url, schema: 'search_plan' });
    try {
      await PostgresSessionStore.open(database);
      await database.query('SET enable_seqscan = off');
      const plan = async (sql: string) =>
        (await database.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`))
          .map((row) => row['QUERY PLAN'])
          .join('\n');
      expect(
        await plan(
          "SELECT id FROM messages WHERE search_tsv @@ websearch_to_tsquery('simple', 'x')",
        ),
      ).toContain('messages_search_tsv');
      expect(
        await plan(
          "SELECT id FROM messages m WHERE (m.search_text || ' ' || m.search_args) ILIKE '%数据库%'",
        ),
      ).toContain('messages_search_trgm');
    } finally {
      await database.close();
    }
  });
});
