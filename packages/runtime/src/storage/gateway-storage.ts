/**
 * What a gateway process keeps in a shared PostgreSQL database, opened together on one
 * connection pool: sessions, cron jobs, the gateway's routes and delivery ledger, the lane that
 * lets one process at a time run a session's turn, and pairing data.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { JobStore } from '@hermes/cron';
import { type GatewayStore, PairingStore, type SessionLane } from '@hermes/gateway';
import type { SessionStore } from '@hermes/state';
import type { PostgresDatabase } from '@hermes/state/postgres';
import type { HermesConfig } from '../config/hermes-config.js';
import { connectPostgres, type PostgresStorageSettings } from './postgres-connection.js';

/** The gateway's stores on a shared database. `close()` closes them, then the pool. */
export interface GatewayStorage {
  /** This process's name among the gateways on the database (host, pid, random suffix). */
  readonly owner: string;
  readonly database: PostgresDatabase;
  readonly sessions: SessionStore;
  readonly jobs: JobStore;
  readonly store: GatewayStore;
  readonly lane: SessionLane & { close(): Promise<void> };
  /** Pairing codes and approved users, shared by every gateway and `hermes pairing`. */
  readonly pairing: PairingStore;
  close(): Promise<void>;
}

/** A name unique to this process start. */
export function processOwnerName(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

/** Opens every gateway store on `config`'s PostgreSQL database (migrating it when needed). */
export async function openGatewayStorage(
  config: HermesConfig & { storage: PostgresStorageSettings },
  options: {
    readonly maxConcurrentTurns: number;
    /** `gateway.pairing.code_ttl_seconds` in ms. */
    readonly pairingCodeTtlMs?: number;
    readonly owner?: string;
  },
): Promise<GatewayStorage> {
  const owner = options.owner ?? processOwnerName();
  const database = await connectPostgres(config, 'hermes-gateway');
  const opened: Array<{ close(): Promise<void> }> = [];
  const close = async () => {
    for (const part of opened.reverse()) await part.close().catch(() => {});
    await database.close();
  };
  try {
    const [{ PostgresSessionStore }, { PostgresJobStore }, gateway] = await Promise.all([
      import('@hermes/state/postgres'),
      import('@hermes/cron/postgres'),
      import('@hermes/gateway/postgres'),
    ]);
    const sessions = await PostgresSessionStore.open(database);
    opened.push(sessions);
    const jobs = await PostgresJobStore.open(database);
    opened.push(jobs);
    const store = await gateway.PostgresGatewayStore.open(database, { owner });
    opened.push(store);
    const lane = new gateway.PostgresSessionLane(database, {
      maxConcurrent: options.maxConcurrentTurns,
    });
    opened.push(lane);
    const pairing = new PairingStore(config.hermesHome, {
      data: new gateway.PostgresPairingData(database),
      ...(options.pairingCodeTtlMs ? { codeTtlMs: options.pairingCodeTtlMs } : {}),
    });
    let closing: Promise<void> | undefined;
    return {
      owner,
      database,
      sessions,
      jobs,
      store,
      lane,
      pairing,
      close: () => {
        closing ??= close();
        return closing;
      },
    };
  } catch (error) {
    await close();
    throw error;
  }
}
