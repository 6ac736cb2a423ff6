/**
 * What a PairingStore does whatever holds its data (the files under HERMES_HOME, or PostgreSQL):
 * codes, approval, expiry, rate limit, the per-platform bound, listing and revoking, a second
 * store (another process) on the same data. Run by the files and PostgreSQL pairing tests.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { PAIRING_ALPHABET, PAIRING_CODE_LENGTH } from '../../src/pairing/pairing-code.js';
import type { PairingStore, PairingStoreOptions } from '../../src/pairing/pairing-store.js';

/** Makes stores on one test's data; each call is another process's store on the same data. */
export type PairingStoreMaker = (options?: PairingStoreOptions) => PairingStore;

function clockAt(start: number) {
  const clock = { now: start, read: () => clock.now };
  return clock;
}

/** Registers the shared pairing suite; `fresh` makes the (empty) data of one test. */
export function describePairingStoreSuite(
  label: string,
  fresh: () => Promise<PairingStoreMaker>,
): void {
  describe(`PairingStore suite: ${label}`, () => {
    let make: PairingStoreMaker;
    beforeEach(async () => {
      make = await fresh();
    });

    it('issues an 8-character code from the unambiguous alphabet', async () => {
      const store = make();
      const issued = await store.issue('telegram', 'u1', 'Ada');
      expect(issued.kind).toBe('code');
      if (issued.kind !== 'code') return;
      expect(issued.code).toHaveLength(PAIRING_CODE_LENGTH);
      for (const symbol of issued.code) expect(PAIRING_ALPHABET).toContain(symbol);
      expect(issued.code).not.toMatch(/[01OI]/);
      expect((await store.list()).pending).toEqual([
        expect.objectContaining({ platform: 'telegram', userId: 'u1', userName: 'Ada' }),
      ]);
    });

    it('approves by code (any case, dashes ignored); the user is then approved on that platform only', async () => {
      const store = make();
      const issued = await store.issue('telegram', 'u1');
      if (issued.kind !== 'code') throw new Error('no code');
      expect(await store.isApproved('telegram', 'u1')).toBe(false);
      const typed = `${issued.code.slice(0, 4).toLowerCase()}-${issued.code.slice(4)}`;
      expect(await store.approve('telegram', typed)).toMatchObject({
        platform: 'telegram',
        userId: 'u1',
      });
      expect(await store.isApproved('telegram', 'u1')).toBe(true);
      expect(await store.isApproved('discord', 'u1')).toBe(false);
      // The code is used up.
      expect(await store.approve('telegram', issued.code)).toBeUndefined();
      expect((await store.list()).pending).toEqual([]);
    });

    it('rejects a wrong code and a code of another platform', async () => {
      const store = make();
      const issued = await store.issue('telegram', 'u1');
      if (issued.kind !== 'code') throw new Error('no code');
      expect(await store.approve('telegram', 'ABCDEFGH')).toBeUndefined();
      expect(await store.approve('discord', issued.code)).toBeUndefined();
      expect(await store.isApproved('telegram', 'u1')).toBe(false);
    });

    it('codes expire after the TTL', async () => {
      const clock = clockAt(1_000_000);
      const store = make({ codeTtlMs: 60_000, clock: clock.read });
      const issued = await store.issue('telegram', 'u1');
      if (issued.kind !== 'code') throw new Error('no code');
      expect(issued.expiresAt).toBe(1_060_000);
      clock.now += 60_000;
      expect((await store.list()).pending).toEqual([]);
      expect(await store.approve('telegram', issued.code)).toBeUndefined();
    });

    it('rate-limits each user: a second request within the window gets no answer, later the same code', async () => {
      const clock = clockAt(5_000_000);
      const store = make({ rateLimitMs: 600_000, clock: clock.read });
      const first = await store.issue('telegram', 'u1');
      expect(first.kind).toBe('code');
      clock.now += 599_999;
      expect(await store.issue('telegram', 'u1')).toEqual({ kind: 'rate_limited' });
      clock.now += 1;
      const again = await store.issue('telegram', 'u1');
      expect(again).toMatchObject({ kind: 'code', fresh: false });
      if (first.kind === 'code' && again.kind === 'code') expect(again.code).toBe(first.code);
    });

    it('keeps at most three codes waiting per platform', async () => {
      const store = make();
      for (const user of ['a', 'b', 'c']) {
        expect((await store.issue('telegram', user)).kind).toBe('code');
      }
      expect(await store.issue('telegram', 'd')).toEqual({ kind: 'full' });
      expect((await store.issue('discord', 'd')).kind).toBe('code');
    });

    it('lists pending codes and approved users over platforms, and revokes', async () => {
      const store = make();
      const a = await store.issue('telegram', 'a');
      await store.issue('slack', 'b');
      if (a.kind !== 'code') throw new Error('no code');
      await store.approve('telegram', a.code);
      const list = await store.list();
      expect(list.approved.map((u) => [u.platform, u.userId])).toEqual([['telegram', 'a']]);
      expect(list.pending.map((p) => [p.platform, p.userId])).toEqual([['slack', 'b']]);
      expect(await store.revoke('telegram', 'a')).toBe(true);
      expect(await store.revoke('telegram', 'a')).toBe(false);
      expect(await store.isApproved('telegram', 'a')).toBe(false);
    });

    it('a second store (another process) sees approvals at once', async () => {
      const gateway = make();
      const cli = make();
      const issued = await gateway.issue('telegram', 'u1');
      if (issued.kind !== 'code') throw new Error('no code');
      await cli.approve('telegram', issued.code);
      expect(await gateway.isApproved('telegram', 'u1')).toBe(true);
      expect(await cli.revoke('telegram', 'u1')).toBe(true);
      expect(await gateway.isApproved('telegram', 'u1')).toBe(false);
    });

    it('concurrent requests in one process lose no code', async () => {
      const store = make();
      await Promise.all(['a', 'b', 'c'].map((user) => store.issue('telegram', user)));
      expect((await store.list()).pending.map((p) => p.userId).sort()).toEqual(['a', 'b', 'c']);
    });

    it('refuses a platform name that is not one', async () => {
      const store = make();
      await expect(store.issue('../etc', 'u1')).rejects.toMatchObject({
        code: 'gateway.pairing_platform',
      });
      await expect(store.isApproved('../etc', 'u1')).rejects.toMatchObject({
        code: 'gateway.pairing_platform',
      });
    });
  });
}
