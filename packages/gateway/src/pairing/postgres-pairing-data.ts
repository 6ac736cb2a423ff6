/**
 * Pairing state in PostgreSQL, for gateways (and the CLI) sharing one database: one JSONB
 * document per platform and kind in `gateway_pairing`, the same shapes as the pairing files.
 * An update locks the platform's two rows (`SELECT … FOR UPDATE`, created empty first when
 * missing) inside one transaction, so concurrent requests in any process never lose each other's
 * change nor exceed the pending-code bound.
 *
 * ```ts
 * const pairing = new PairingStore(hermesHome, { data: new PostgresPairingData(database) });
 * ```
 */
import { HermesError, isHermesError } from '@hermes/protocol';
import type { PostgresDatabase } from '@hermes/state/postgres';
import type { z } from 'zod';
import {
  GATEWAY_STORE_COMPONENT,
  GATEWAY_STORE_MIGRATIONS,
} from '../store/postgres-gateway-migrations.js';
import { type PairingChange, PairingData, type PairingState } from './pairing-data.js';
import {
  type ApprovedFile,
  ApprovedFileSchema,
  checkPlatformName,
  type PendingFile,
  PendingFileSchema,
} from './pairing-files.js';

type Kind = 'pending' | 'approved';

/** Options of {@link PostgresPairingData}. */
export interface PostgresPairingDataOptions {
  /** Told when a stored document could not be parsed (it is then read as empty). */
  readonly onCorrupt?: (where: string) => void;
}

/** {@link PairingData} in the `gateway_pairing` table (created by the gateway's migrations). */
export class PostgresPairingData extends PairingData {
  readonly #database: PostgresDatabase;
  readonly #onCorrupt: ((where: string) => void) | undefined;
  #migrated: Promise<unknown> | undefined;

  /** The database stays the caller's; the tables are created on first use when missing. */
  constructor(database: PostgresDatabase, options: PostgresPairingDataOptions = {}) {
    super();
    this.#database = database;
    this.#onCorrupt = options.onCorrupt;
  }

  async platforms(): Promise<string[]> {
    await this.#ready();
    const rows = await this.#run('list the pairing platforms', () =>
      this.#database.query<{ platform: string }>(
        'SELECT DISTINCT platform FROM gateway_pairing ORDER BY platform',
      ),
    );
    return rows.map((row) => row.platform);
  }

  async readPending(platform: string): Promise<PendingFile> {
    return this.#parse(
      platform,
      'pending',
      await this.#read(platform, 'pending'),
      PendingFileSchema,
    );
  }

  async readApproved(platform: string): Promise<ApprovedFile> {
    const document = await this.#read(platform, 'approved');
    return this.#parse(platform, 'approved', document, ApprovedFileSchema);
  }

  async update<T>(platform: string, change: (state: PairingState) => PairingChange<T>): Promise<T> {
    checkPlatformName(platform);
    await this.#ready();
    return this.#run('update the pairing state', () =>
      this.#database.transaction(async (client) => {
        // Both rows exist before they are locked, so a first request has something to lock.
        await client.query(
          `INSERT INTO gateway_pairing (platform, kind, document, updated_at)
           VALUES ($1, 'approved', '{}', $2), ($1, 'pending', '{}', $2)
           ON CONFLICT (platform, kind) DO NOTHING`,
          [platform, Date.now()],
        );
        const locked = await client.query<{ kind: Kind; document: unknown }>(
          `SELECT kind, document FROM gateway_pairing WHERE platform = $1
           ORDER BY kind FOR UPDATE`,
          [platform],
        );
        const find = (kind: Kind) => locked.rows.find((row) => row.kind === kind)?.document;
        const decided = change({
          pending: this.#parse(platform, 'pending', find('pending'), PendingFileSchema),
          approved: this.#parse(platform, 'approved', find('approved'), ApprovedFileSchema),
        });
        const writes: [Kind, unknown][] = [];
        if (decided.approved) writes.push(['approved', decided.approved]);
        if (decided.pending) writes.push(['pending', decided.pending]);
        for (const [kind, document] of writes) {
          await client.query(
            `UPDATE gateway_pairing SET document = $3, updated_at = $4
             WHERE platform = $1 AND kind = $2`,
            [platform, kind, JSON.stringify(document), Date.now()],
          );
        }
        return decided.result;
      }),
    );
  }

  async #read(platform: string, kind: Kind): Promise<unknown> {
    checkPlatformName(platform);
    await this.#ready();
    const rows = await this.#run('read the pairing state', () =>
      this.#database.query<{ document: unknown }>(
        'SELECT document FROM gateway_pairing WHERE platform = $1 AND kind = $2',
        [platform, kind],
      ),
    );
    return rows[0]?.document;
  }

  /** A stored document, validated; missing is empty, unreadable is empty and reported. */
  #parse<T>(platform: string, kind: Kind, document: unknown, schema: z.ZodType<T>): T {
    const parsed = schema.safeParse(document ?? {});
    if (parsed.success) return parsed.data;
    this.#onCorrupt?.(`gateway_pairing ${platform} ${kind}`);
    return schema.parse({});
  }

  #ready(): Promise<unknown> {
    this.#migrated ??= this.#run('create the pairing table', () =>
      this.#database.migrate(GATEWAY_STORE_COMPONENT, GATEWAY_STORE_MIGRATIONS),
    ).catch((error: unknown) => {
      this.#migrated = undefined;
      throw error;
    });
    return this.#migrated;
  }

  async #run<T>(what: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isHermesError(error)) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new HermesError(
        'gateway.pairing_failed',
        `Could not ${what} in PostgreSQL at ${this.#database.label}: ${reason}. Nothing was changed; check the server.`,
        { details: { what }, cause: error, retryable: true },
      );
    }
  }
}
