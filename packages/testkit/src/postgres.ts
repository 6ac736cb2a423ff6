/**
 * @packageDocumentation
 * A real PostgreSQL for tests (`@hermes/testkit/postgres`): every suite gets a database of its
 * own on the server named by `HERMES_TEST_POSTGRES_URL` (the repository's vitest setup starts one
 * when PostgreSQL is installed; `.ci/run` always does).
 *
 * ```ts
 * import { createTestDatabase, postgresTestUrl, NO_POSTGRES } from '@hermes/testkit/postgres';
 * describe.runIf(postgresTestUrl())(`postgres store ${NO_POSTGRES}`, () => {
 *   let db: TestDatabase;
 *   beforeAll(async () => { db = await createTestDatabase(); });
 *   afterAll(() => db.drop());
 * });
 * ```
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The environment variable naming the test server (a superuser URL). */
export const POSTGRES_URL_ENV = 'HERMES_TEST_POSTGRES_URL';

/** Appended to the names of suites that need PostgreSQL, so a skip says why. */
export const NO_POSTGRES =
  '(needs PostgreSQL: install postgresql or set HERMES_TEST_POSTGRES_URL; skipped without it)';

/**
 * The test server's URL, or `undefined` when there is none. Under `CI` a missing server throws:
 * CI must never pass by skipping the PostgreSQL suites.
 */
export function postgresTestUrl(): string | undefined {
  const url = process.env[POSTGRES_URL_ENV]?.trim();
  if (url) return url;
  if (process.env.CI && process.env.CI !== 'false') {
    throw new Error(
      `${POSTGRES_URL_ENV} is not set under CI: .ci/run starts PostgreSQL (tools/test-setup/postgres.sh) and sets it.`,
    );
  }
  return undefined;
}

/** A database created for one test file or suite. */
export interface TestDatabase {
  /** Connection URL of the new database. */
  readonly url: string;
  /** Its name (`hermes_t_` and random hex). */
  readonly name: string;
  /** Drops it, closing whatever is still connected. Idempotent. */
  drop(): Promise<void>;
}

/** Creates an empty database on the test server. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const server = postgresTestUrl();
  if (!server) {
    throw new Error(
      `No PostgreSQL for tests: install postgresql (the repository's vitest run then starts one) or set ${POSTGRES_URL_ENV}.`,
    );
  }
  const name = `hermes_t_${randomBytes(6).toString('hex')}`;
  await adminQuery(server, `CREATE DATABASE ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    url: url.toString(),
    name,
    async drop() {
      if (dropped) return;
      dropped = true;
      await adminQuery(server, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
