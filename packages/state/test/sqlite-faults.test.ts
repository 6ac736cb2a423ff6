import { randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isHermesError } from '@hermes/protocol';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { LATEST_SCHEMA_VERSION, openSessionStore } from '../src/index.js';
import { sampleConversation } from '../src/testing.js';

function dbPath(): string {
  return join(process.env.HERMES_HOME ?? '', 'state.db');
}

function openError(options: { readonly readonly?: boolean } = {}): unknown {
  try {
    openSessionStore(options).close();
  } catch (error) {
    return error;
  }
  throw new Error('expected the open to fail');
}

describe('SqliteSessionStore faults', () => {
  it('refuses a non-SQLite file, names it, suggests hermes doctor and leaves it untouched', () => {
    const bytes = randomBytes(8192);
    writeFileSync(dbPath(), bytes);
    const error = openError();
    expect(isHermesError(error)).toBe(true);
    expect(error).toMatchObject({ code: 'state.corrupt_database' });
    expect((error as Error).message).toContain(dbPath());
    expect((error as Error).message).toContain('hermes doctor');
    expect(readFileSync(dbPath()).equals(bytes)).toBe(true);
  });

  it('refuses a SQLite file whose pages are damaged, leaving it untouched', () => {
    const raw = new Database(dbPath());
    raw.exec('CREATE TABLE t (x); INSERT INTO t VALUES (1);');
    raw.close();
    const bytes = readFileSync(dbPath());
    // Keep the 16-byte magic, scramble the rest of the header and the schema page.
    const damaged = Buffer.concat([bytes.subarray(0, 16), randomBytes(bytes.length - 16)]);
    writeFileSync(dbPath(), damaged);
    expect(openError()).toMatchObject({ code: 'state.corrupt_database' });
    expect(readFileSync(dbPath()).equals(damaged)).toBe(true);
  });

  it('refuses a file whose schema page is damaged behind an intact header', () => {
    const raw = new Database(dbPath());
    raw.exec('CREATE TABLE t (x); INSERT INTO t VALUES (1);');
    raw.close();
    const bytes = readFileSync(dbPath());
    // Keep the 100-byte database header; scramble the rest of page 1 (the schema table).
    const damaged = Buffer.from(bytes);
    randomBytes(4096 - 100).copy(damaged, 100);
    writeFileSync(dbPath(), damaged);
    expect(openError()).toMatchObject({ code: 'state.corrupt_database' });
    expect(readFileSync(dbPath()).equals(damaged)).toBe(true);
  });

  it('refuses a database from a newer build without writing to it', () => {
    const raw = new Database(dbPath());
    raw.pragma(`user_version = ${LATEST_SCHEMA_VERSION + 1}`);
    raw.close();
    const bytes = readFileSync(dbPath());
    const error = openError();
    expect(error).toMatchObject({
      code: 'state.schema_too_new',
      details: { found: LATEST_SCHEMA_VERSION + 1, supported: LATEST_SCHEMA_VERSION },
    });
    expect((error as Error).message).toContain(dbPath());
    expect(readFileSync(dbPath()).equals(bytes)).toBe(true);
  });

  it('surfaces a failed append as state.persistence_failed and keeps what was saved', async () => {
    const writer = openSessionStore();
    const session = await writer.createSession({ source: 'cli' });
    const messages = sampleConversation();
    await writer.appendMessages(session.id, messages.slice(0, 2));
    await writer.close();

    const asRoot = process.getuid?.() === 0;
    if (!asRoot) chmodSync(dbPath(), 0o444);
    const reader = openSessionStore({ readonly: true });
    try {
      await expect(reader.appendMessages(session.id, messages.slice(2))).rejects.toMatchObject({
        code: 'state.persistence_failed',
      });
      expect((await reader.getMessages(session.id)).map((r) => r.message)).toEqual(
        messages.slice(0, 2),
      );
    } finally {
      await reader.close();
      if (!asRoot) chmodSync(dbPath(), 0o644);
    }
    const reopened = openSessionStore();
    expect(await reopened.getMessages(session.id)).toHaveLength(2);
    // The failed write did not count the messages as written.
    expect(await reopened.appendMessages(session.id, messages.slice(2))).toHaveLength(5);
    await reopened.close();
  });

  it('rejects opening a missing file read-only', () => {
    expect(openError({ readonly: true })).toMatchObject({ code: 'state.open_failed' });
  });
});
