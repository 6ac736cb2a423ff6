import { PostgresSessionStore } from '@hermes/state/postgres';
import {
  createTestDatabase,
  NO_POSTGRES,
  postgresTestUrl,
  type TestDatabase,
} from '@hermes/testkit/postgres';
import { afterAll, beforeAll, describe } from 'vitest';
import { describeSessionStoreContract } from '../src/testing.js';

describe.runIf(postgresTestUrl())(`PostgresSessionStore ${NO_POSTGRES}`, () => {
  let db: TestDatabase;
  let counter = 0;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db?.drop());

  // A schema per test: every test starts from an empty store in the one database of this file.
  describeSessionStoreContract('postgres', () =>
    PostgresSessionStore.connect({ url: db.url, schema: `contract_${++counter}`, poolSize: 4 }),
  );
});
