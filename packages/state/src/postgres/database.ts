/**
 * One PostgreSQL database shared by every Hermes store of a process: a connection pool whose
 * connections all use one schema (`search_path`), transactions, dedicated connections for
 * session-level locks, and a migration runner each store uses for its own tables.
 *
 * Several processes (gateways, the CLI, cron) share the same schema; migrations take an advisory
 * lock so two processes starting at once never apply one twice.
 */
import { HermesError } from '@hermes/protocol';
import pg from 'pg';
import { redactPostgresUrl } from './url.js';

/** Where to connect. */
export interface PostgresConnectOptions {
  /** `postgres://user:password@host:port/database` (credentials never appear in errors). */
  readonly url: string;
  /**
   * The schema every table lives in; created when missing. Default `hermes`. Processes that
   * share data use the same schema; separate profiles use separate ones.
   */
  readonly schema?: string;
  /** Pooled connections at most. Default 10. */
  readonly poolSize?: number;
  /** Shown in `pg_stat_activity`. Default `hermes`. */
  readonly applicationName?: string;
}

/** One step of a store's schema. Versions are applied in order, each once, in a transaction. */
export interface PostgresMigration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/** Error code of a failed connection (bad URL, server down, authentication). */
export const POSTGRES_CONNECT_FAILED_CODE = 'state.postgres_connect_failed';
/** Error code of a schema name that is not a plain lower-case identifier. */
export const POSTGRES_BAD_SCHEMA_CODE = 'state.postgres_bad_schema';

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
const INT8_OID = 20;
const MIGRATION_LOCK = 'hermes.migrate';

/** Reads BIGINT columns (epoch milliseconds, ids) as numbers instead of strings. */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID && format !== 'binary') return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

/** A pooled connection to one schema of one PostgreSQL database. */
export class PostgresDatabase {
  readonly schema: string;
  readonly pool: pg.Pool;
  readonly #label: string;
  #closed = false;

  private constructor(pool: pg.Pool, schema: string, label: string) {
    this.pool = pool;
    this.schema = schema;
    this.#label = label;
  }

  /**
   * Connects, checks the server answers, and creates the schema when missing.
   *
   * @throws HermesError `state.postgres_bad_schema` for an unusable schema name,
   *   `state.postgres_connect_failed` when the server cannot be reached or refuses the login.
   */
  static async connect(options: PostgresConnectOptions): Promise<PostgresDatabase> {
    const schema = options.schema ?? 'hermes';
    if (!SCHEMA_NAME.test(schema)) {
      throw new HermesError(
        POSTGRES_BAD_SCHEMA_CODE,
        `PostgreSQL schema "${schema}" is not usable: use lower-case letters, digits and _ (at most 63, not starting with a digit).`,
      );
    }
    const label = redactPostgresUrl(options.url);
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      application_name: options.applicationName ?? 'hermes',
      options: `-c search_path=${schema}`,
      types,
    });
    // An idle client's error (the server restarted) must not crash the process; the next query
    // gets a fresh connection.
    pool.on('error', () => {});
    try {
      await createSchema(pool, schema);
    } catch (error) {
      await pool.end().catch(() => {});
      throw new HermesError(
        POSTGRES_CONNECT_FAILED_CODE,
        `Cannot use PostgreSQL at ${label}: ${describe(error)}. Check storage.url (or HERMES_DATABASE_URL) and that the server is running.`,
        { cause: error },
      );
    }
    return new PostgresDatabase(pool, schema, label);
  }

  /** The URL without its password, for messages. */
  get label(): string {
    return this.#label;
  }

  /** Runs one statement on any pooled connection. */
  async query<R extends pg.QueryResultRow = pg.QueryResultRow>(
    sql: string,
    params: readonly unknown[] = [],
  ): Promise<R[]> {
    const result = await this.pool.query<R>(sql, params as unknown[]);
    return result.rows;
  }

  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  async transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const value = await work(client);
      await client.query('COMMIT');
      return value;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  /**
   * A connection of its own, outside the pool, for session-level advisory locks that must last
   * as long as a turn or the process (the server drops them when the connection dies). The caller
   * ends it.
   */
  async dedicatedClient(): Promise<pg.Client> {
    const options = this.pool.options as pg.PoolConfig;
    const client = new pg.Client({ ...options, types });
    client.on('error', () => {});
    await client.connect();
    return client;
  }

  /**
   * Applies `component`'s migrations that this database has not seen, in version order, each in
   * its own transaction, under an advisory lock. Resolves to the names applied now.
   */
  async migrate(component: string, migrations: readonly PostgresMigration[]): Promise<string[]> {
    return this.transaction(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [MIGRATION_LOCK]);
      await client.query(
        `CREATE TABLE IF NOT EXISTS hermes_migrations (
           component TEXT NOT NULL, version INTEGER NOT NULL, name TEXT NOT NULL,
           applied_at BIGINT NOT NULL, PRIMARY KEY (component, version))`,
      );
      const seen = await client.query<{ version: number }>(
        'SELECT version FROM hermes_migrations WHERE component = $1',
        [component],
      );
      const done = new Set(seen.rows.map((row) => row.version));
      const applied: string[] = [];
      for (const step of [...migrations].sort((a, b) => a.version - b.version)) {
        if (done.has(step.version)) continue;
        await client.query(step.sql);
        await client.query(
          'INSERT INTO hermes_migrations (component, version, name, applied_at) VALUES ($1, $2, $3, $4)',
          [component, step.version, step.name, Date.now()],
        );
        applied.push(`${component} ${step.version} ${step.name}`);
      }
      return applied;
    });
  }

  /** Ends every pooled connection. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.pool.end();
  }
}

/** `CREATE SCHEMA IF NOT EXISTS` races with itself across processes: serialize it. */
async function createSchema(pool: pg.Pool, schema: string): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [MIGRATION_LOCK]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/postgres(?:ql)?:\/\/[^\s]+/gi, (url) => redactPostgresUrl(url));
}
