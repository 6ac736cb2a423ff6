/**
 * PairingStore on PostgresPairingData: the shared pairing suite (a schema per test), then what
 * several gateway processes on one database need: an approval by one is seen by the other, and
 * concurrent requests from two processes never exceed the pending-code bound nor lose a code.
 */
import type { PostgresDatabase } from '@hermes/state/postgres';
import { NO_POSTGRES, postgresTestUrl } from '@hermes/testkit/postgres';
import { describe, expect, it } from 'vitest';
import { PairingStore, type PairingStoreOptions } from '../src/pairing/pairing-store.js';
import { PostgresPairingData } from '../src/postgres.js';
import { describePairingStoreSuite } from './support/pairing-store-suite.js';
import { usePostgresTestDb } from './support/postgres-test-db.ts';

function store(database: PostgresDatabase, options: PairingStoreOptions = {}): PairingStore {
  const home = process.env.HERMES_HOME ?? '';
  return new PairingStore(home, { ...options, data: new PostgresPairingData(database) });
}

describe.runIf(postgresTestUrl())(`PairingStore on PostgreSQL ${NO_POSTGRES}`, () => {
  const { connect, freshSchema } = usePostgresTestDb('pair', { poolSize: 4 });

  describePairingStoreSuite('PostgreSQL', async () => {
    const database = await connect(freshSchema());
    return (options) => store(database, options);
  });

  it('an approval in one process is seen by another; nothing is written to HERMES_HOME', async () => {
    const schema = freshSchema();
    const gateway = store(await connect(schema));
    const cli = store(await connect(schema));
    const issued = await gateway.issue('telegram', 'u1', 'Ada');
    if (issued.kind !== 'code') throw new Error('no code');
    expect((await cli.list()).pending.map((p) => p.userId)).toEqual(['u1']);
    expect(await cli.approve('telegram', issued.code)).toMatchObject({ userName: 'Ada' });
    expect(await gateway.isApproved('telegram', 'u1')).toBe(true);
    const { existsSync } = await import('node:fs');
    expect(existsSync(gateway.dir)).toBe(false);
  });

  it('concurrent requests from two processes never exceed the bound and lose no code', async () => {
    const schema = freshSchema();
    const one = store(await connect(schema), { maxPendingPerPlatform: 3 });
    const two = store(await connect(schema), { maxPendingPerPlatform: 3 });
    const users = Array.from({ length: 12 }, (_, i) => `u${i}`);
    const results = await Promise.all(
      users.map((user, i) => (i % 2 === 0 ? one : two).issue('telegram', user)),
    );
    const codes = results.filter((r) => r.kind === 'code');
    expect(codes).toHaveLength(3);
    expect(results.filter((r) => r.kind === 'full')).toHaveLength(9);
    const pending = (await one.list()).pending;
    expect(pending).toHaveLength(3);
    expect(new Set(pending.map((p) => p.code))).toEqual(
      new Set(codes.map((c) => (c.kind === 'code' ? c.code : ''))),
    );
  });

  it('reads an unreadable stored document as empty and reports it', async () => {
    const database = await connect(freshSchema());
    const seen: string[] = [];
    const pairing = new PairingStore(process.env.HERMES_HOME ?? '', {
      data: new PostgresPairingData(database, { onCorrupt: (where) => seen.push(where) }),
    });
    const issued = await pairing.issue('telegram', 'u1');
    if (issued.kind !== 'code') throw new Error('no code');
    await pairing.approve('telegram', issued.code);
    await database.query(
      `UPDATE gateway_pairing SET document = '{"users": "everyone"}' WHERE kind = 'approved'`,
    );
    expect(await pairing.isApproved('telegram', 'u1')).toBe(false);
    expect(seen).toEqual(['gateway_pairing telegram approved']);
  });
});
