/**
 * Opening the PostgreSQL database `storage:` names. The drivers load only here, on first use, so
 * a SQLite installation never loads `pg`.
 */
import { basename, dirname } from 'node:path';
import type { PostgresDatabase } from '@hermes/state/postgres';
import type { HermesConfig } from '../config/hermes-config.js';
import { profileSchema, type StorageSettings } from '../config/storage-section.js';

/** `storage:` with PostgreSQL selected. */
export type PostgresStorageSettings = Extract<StorageSettings, { backend: 'postgres' }>;

/** The storage settings of `config`, SQLite when it has none. */
export function storageOf(config: HermesConfig): StorageSettings {
  return config.storage ?? { backend: 'sqlite' };
}

/** Whether `config` keeps its data in PostgreSQL (shared with other processes). */
export function usesPostgres(
  config: HermesConfig,
): config is HermesConfig & { storage: PostgresStorageSettings } {
  return config.storage?.backend === 'postgres';
}

/**
 * The schema of `config`'s data: `storage.schema`, else one per profile — `hermes` for the
 * default home, `hermes_<name>` for `HERMES_HOME/profiles/<name>` — so profiles sharing a server
 * never see each other's sessions.
 */
export function schemaOf(config: HermesConfig, settings: PostgresStorageSettings): string {
  if (settings.schema) return settings.schema;
  const home = config.hermesHome;
  const profile = basename(dirname(home)) === 'profiles' ? basename(home) : undefined;
  return profileSchema(profile);
}

/** Connects to `config`'s PostgreSQL database (its schema created when missing). */
export async function connectPostgres(
  config: HermesConfig & { storage: PostgresStorageSettings },
  applicationName: string,
): Promise<PostgresDatabase> {
  const { PostgresDatabase } = await import('@hermes/state/postgres');
  return PostgresDatabase.connect({
    url: config.storage.url,
    schema: schemaOf(config, config.storage),
    poolSize: config.storage.poolSize,
    applicationName,
  });
}
