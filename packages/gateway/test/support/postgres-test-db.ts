/**
 * One test database per PostgreSQL suite, with pools opened on fresh schemas and closed after
 * each test. Call {@link usePostgresTestDb} inside the suite's `describe`: it registers the hooks.
 */
import { PostgresDatabase } from '@hermes/state/postgres';
import { createTestDatabase, type TestDatabase } from '@hermes/testkit/postgres';
import { afterAll, afterEach, beforeAll } from 'vitest';

/** What a suite uses. */
export interface PostgresTestDb {
  /** A pool on `schema` of the suite's database, closed after the test. */
  connect(schema: string, applicationName?: string): Promise<PostgresDatabase>;
  /** A schema name no other test of the suite used (`<prefix>_<n>`). */
  freshSchema(): string;
  /** The pools the running test opened, oldest first. */
  opened(): readonly PostgresDatabase[];
}

/** Registers the suite's hooks; `before` runs after each test, ahead of closing the pools. */
export function usePostgresTestDb(
  prefix: string,
  options: { readonly poolSize?: number; readonly before?: () => Promise<void> } = {},
): PostgresTestDb {
  let testDb: TestDatabase | undefined;
  let schemas = 0;
  const databases: PostgresDatabase[] = [];
  beforeAll(async () => {
    testDb = await createTestDatabase();
  });
  afterAll(async () => {
    await testDb?.drop();
  });
  afterEach(async () => {
    await options.before?.();
    for (const database of databases.splice(0)) await database.close();
  });
  return {
    async connect(schema, applicationName) {
      if (!testDb) throw new Error('the test database is not created yet (use it inside a test)');
      const database = await PostgresDatabase.connect({
        url: testDb.url,
        schema,
        poolSize: options.poolSize ?? 4,
        ...(applicationName ? { applicationName } : {}),
      });
      databases.push(database);
      return database;
    },
    opened: () => databases,
    freshSchema() {
      schemas += 1;
      return `${prefix}_${schemas}`;
    },
  };
}
