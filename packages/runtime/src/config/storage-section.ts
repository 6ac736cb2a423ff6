/**
 * The `storage:` section of config.yaml: where sessions, cron jobs and the gateway's state live.
 * SQLite in `HERMES_HOME/state.db` (the default) or one PostgreSQL database shared by several
 * processes and machines. `HERMES_DATABASE_URL` overrides `storage.url` and, when set, selects
 * PostgreSQL. Validated here (snake_case), surfaced as `config.storage` (camelCase).
 */
import { z } from 'zod';

/** The resolved `storage:` section. */
export type StorageSettings =
  | { readonly backend: 'sqlite' }
  | {
      readonly backend: 'postgres';
      /** `postgres://…` (may carry a password: never print it, see `redactPostgresUrl`). */
      readonly url: string;
      /**
       * The PostgreSQL schema: `storage.schema`, else `hermes` for the default profile and
       * `hermes_<profile>` for a named one, so profiles never see each other's sessions.
       */
      readonly schema: string | undefined;
      /** Pooled connections per process (`storage.pool_size`, default 10). */
      readonly poolSize: number;
    };

/** The environment variable that overrides `storage.url` (and selects PostgreSQL). */
export const DATABASE_URL_ENV = 'HERMES_DATABASE_URL';

/** Pooled connections per process when `storage.pool_size` is unset. */
export const DEFAULT_POOL_SIZE = 10;

const postgresUrl = z
  .string()
  .trim()
  .refine((value) => /^postgres(ql)?:\/\//.test(value), {
    message: 'expected a postgres://user:password@host:port/database URL',
  });

/** `storage:` as written. */
export const StorageSectionSchema = z.strictObject({
  /** `sqlite` (default) or `postgres`. */
  backend: z.enum(['sqlite', 'postgres']).optional(),
  /** Required for `postgres` unless `HERMES_DATABASE_URL` is set. */
  url: postgresUrl.optional(),
  /** A lower-case identifier; default `hermes` (`hermes_<profile>` for a named profile). */
  schema: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'expected a lower-case identifier such as hermes_team')
    .optional(),
  pool_size: z.number().int().positive().max(200).optional(),
});

/** `storage:` as validated. */
export type StorageSection = z.output<typeof StorageSectionSchema>;

type Env = Readonly<Record<string, string | undefined>>;

/** What {@link resolveStorage} found wrong: the key path and what to do. */
export interface StorageProblem {
  readonly path: string;
  readonly message: string;
}

/**
 * The storage settings of a validated `storage:` section under the environment.
 * `HERMES_DATABASE_URL` (non-empty) wins over `storage.url` and implies `backend: postgres`
 * unless the file says `sqlite` explicitly.
 */
export function resolveStorage(
  section: StorageSection | null | undefined,
  env: Env,
): StorageSettings | StorageProblem {
  const envUrl = env[DATABASE_URL_ENV]?.trim();
  const backend = section?.backend ?? (envUrl ? 'postgres' : 'sqlite');
  if (backend === 'sqlite') return { backend: 'sqlite' };
  const url = envUrl || section?.url;
  if (!url) {
    return {
      path: 'storage.url',
      message: `storage.backend is postgres but no URL is set: add storage.url (postgres://user:password@host:5432/db) or set ${DATABASE_URL_ENV}`,
    };
  }
  if (!/^postgres(ql)?:\/\//.test(url)) {
    return {
      path: DATABASE_URL_ENV,
      message: `${DATABASE_URL_ENV} must be a postgres://user:password@host:port/database URL`,
    };
  }
  return {
    backend: 'postgres',
    url,
    schema: section?.schema,
    poolSize: section?.pool_size ?? DEFAULT_POOL_SIZE,
  };
}

/** The schema a profile uses when `storage.schema` is unset. */
export function profileSchema(profile: string | undefined): string {
  if (!profile || profile === 'default') return 'hermes';
  const cleaned = profile.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  return `hermes_${cleaned}`.slice(0, 63);
}
