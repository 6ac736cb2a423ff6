/**
 * PairingStore on its default data, the files under HERMES_HOME/pairing/: the shared pairing
 * suite, then what only the files do (owner-only files, a corrupt file).
 */
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PairingStore } from '../src/pairing/pairing-store.js';
import { describePairingStoreSuite } from './support/pairing-store-suite.js';

function home(): string {
  return process.env.HERMES_HOME ?? '';
}

describePairingStoreSuite('files', async () => (options) => new PairingStore(home(), options));

describe('PairingStore (files)', () => {
  it('writes the codes owner-only on disk', async () => {
    const store = new PairingStore(home());
    const issued = await store.issue('telegram', 'u1', 'Ada');
    expect(issued.kind).toBe('code');
    const path = join(home(), 'pairing', 'telegram-pending.json');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(path, 'utf8')).codes[0]).toMatchObject({
      userId: 'u1',
      userName: 'Ada',
    });
  });

  it('a corrupt approved file approves nobody and is reported', async () => {
    const dir = join(home(), 'pairing');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'telegram-approved.json'), '{ not json');
    const corrupt: string[] = [];
    const store = new PairingStore(home(), { onCorrupt: (path) => corrupt.push(path) });
    expect(await store.isApproved('telegram', 'u1')).toBe(false);
    expect(corrupt).toEqual([join(dir, 'telegram-approved.json')]);
  });
});
