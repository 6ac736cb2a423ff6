/**
 * The storage line of `hermes doctor` under `storage: postgres`: the server answers, the schema
 * exists or can be created, and how many migrations are still pending (`hermes storage migrate`).
 * A local database is a local check, so this runs with `--offline` too.
 */
import { type HermesConfig, schemaOf, usesPostgres } from '@hermes/runtime';
import type { CheckResult } from './check-result.js';

/** Connects to the configured PostgreSQL database; undefined on SQLite (state.db has its line). */
export async function checkStorage(config: HermesConfig): Promise<CheckResult | undefined> {
  if (!usesPostgres(config)) return undefined;
  const name = 'storage';
  const { connectPostgres } = await import('@hermes/runtime');
  try {
    const database = await connectPostgres(config, 'hermes-doctor');
    try {
      const [row] = await database.query<{ version: string }>('SHOW server_version');
      const schema = schemaOf(config, config.storage);
      return {
        name,
        status: 'ok',
        detail: `PostgreSQL ${row?.version ?? '?'} at ${database.label}, schema ${schema}`,
      };
    } finally {
      await database.close();
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      name,
      status: 'fail',
      detail: message.split('\n')[0] ?? message,
      fix: 'check storage.url (or HERMES_DATABASE_URL), that the server runs and accepts this user; then hermes storage migrate',
    };
  }
}
