/**
 * End to end: the built `hermes storage` against a real PostgreSQL — status, migrate (once, then
 * up to date), copy of a SQLite history (sessions verified, cron jobs; re-runnable), and the other
 * commands reading the copy once `storage:` points at PostgreSQL: `sessions list|search`,
 * `cron list`, `pairing`.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PairingStore } from '@hermes/gateway';
import { PostgresPairingData } from '@hermes/gateway/postgres';
import { PostgresDatabase, PostgresSessionStore } from '@hermes/state/postgres';
import { script, startScriptedServer } from '@hermes/testkit';
import { createTestDatabase, type TestDatabase } from '@hermes/testkit/postgres';
import { afterEach, describe, expect, it } from 'vitest';
import { configureScriptedModel, runHermes, workDir } from './chat-harness.ts';
import { writeSessions } from './sessions-fixture.ts';
import { hermes } from './spawn-hermes.ts';

const home = () => process.env.HERMES_HOME as string;
let db: TestDatabase | undefined;

afterEach(async () => {
  await db?.drop();
  db = undefined;
});

/** A database of its own, with its URL carrying a password that must never be printed. */
async function database(): Promise<{ url: string; shown: string }> {
  db = await createTestDatabase();
  const url = new URL(db.url);
  url.password = 'pg-secret-pw';
  const shown = new URL(db.url);
  shown.password = '***';
  return { url: url.toString(), shown: shown.toString() };
}

/** What a gateway does for an unknown user: a pairing code, kept in the shared database. */
async function issueCode(url: string, platform: string, userId: string): Promise<string> {
  const database = await PostgresDatabase.connect({ url });
  try {
    const pairing = new PairingStore(home(), { data: new PostgresPairingData(database) });
    const issued = await pairing.issue(platform, userId);
    if (issued.kind !== 'code') throw new Error(`no code issued: ${issued.kind}`);
    return issued.code;
  } finally {
    await database.close();
  }
}

function usePostgres(url: string): void {
  writeFileSync(join(home(), 'config.yaml'), `storage:\n  backend: postgres\n  url: ${url}\n`);
}

describe('built hermes storage', () => {
  it('says where data lives: SQLite by default, PostgreSQL with the password masked', async () => {
    const sqlite = await hermes(['storage']);
    expect(sqlite.code).toBe(0);
    expect(sqlite.stdout).toBe(`backend: sqlite\ndatabase: ${join(home(), 'state.db')}\n`);
    const { url, shown } = await database();
    usePostgres(url);
    const pg = await hermes(['storage', 'status']);
    expect(pg.stdout).toBe(`backend: postgres\ndatabase: ${shown}\nschema: hermes\n`);
    expect(pg.stdout + pg.stderr).not.toContain('pg-secret-pw');
  });

  it('migrates every component once, then is up to date', async () => {
    const { url } = await database();
    const first = await hermes(['storage', 'migrate'], { HERMES_DATABASE_URL: url });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    for (const component of ['state', 'cron', 'gateway']) {
      expect(first.stdout).toMatch(new RegExp(`^applied: ${component} 1 `, 'm'));
    }
    expect(first.stdout).toMatch(/migration\(s\) applied\n$/);
    const again = await hermes(['storage', 'migrate'], { HERMES_DATABASE_URL: url });
    expect(again.stdout).toMatch(/\(schema hermes\): up to date\n$/);
    expect(first.stdout + again.stdout).not.toContain('pg-secret-pw');
  });

  it('copies a SQLite history into PostgreSQL, verifies it, and the other commands read it', async () => {
    const { old, recent } = await writeSessions(home());
    // A cron job made while on SQLite moves too, same id and schedule.
    const created = await hermes([
      'cron',
      'create',
      'every 2h',
      'Summarize my inbox',
      '--name',
      'inbox',
    ]);
    expect(created.code).toBe(0);
    const [sqliteJob] = JSON.parse((await hermes(['cron', 'list', '--json'])).stdout);
    const { url } = await database();
    usePostgres(url);
    const copy = await hermes(['storage', 'copy', '--from', 'sqlite', '--to', 'postgres']);
    expect(copy.stderr).toBe('');
    expect(copy.code).toBe(0);
    expect(copy.stdout).toMatch(
      /^copied 2 session\(s\), 0 already there; 2 session\(s\) and \d+ message\(s\)/,
    );
    expect(copy.stdout).toContain(
      'copied 1 cron job(s), 0 already there (0 run record(s), 0 pending delivery record(s))',
    );
    expect(copy.stdout).toContain('verified: every session has the same number of messages');
    const rerun = await hermes(['storage', 'copy', '--from', 'sqlite', '--to', 'postgres']);
    expect(rerun.stdout).toMatch(/^copied 0 session\(s\), 2 already there/);
    expect(rerun.stdout).toContain('copied 0 cron job(s), 1 already there');
    const jobs = JSON.parse((await hermes(['cron', 'list', '--json'])).stdout);
    expect(jobs).toEqual([sqliteJob]);
    expect(sqliteJob).toMatchObject({ name: 'inbox', scheduleText: 'every 2h' });

    const list = await hermes(['sessions', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(recent);
    expect(list.stdout).toContain(old);
    const search = await hermes(['sessions', 'search', 'KeyError']);
    expect(search.stdout).toContain(recent);
    expect(search.stdout).not.toContain(old);

    // A gateway (on another machine) issued a code; the owner approves it here.
    const issued = await issueCode(url, 'telegram', '424242');
    const approve = await hermes(['pairing', 'approve', 'telegram', issued]);
    expect(approve.stderr).toBe('');
    expect(approve.code).toBe(0);
    const pairing = await hermes(['pairing', 'list', '--json']);
    expect(JSON.parse(pairing.stdout).approved).toEqual([
      expect.objectContaining({ platform: 'telegram', userId: '424242' }),
    ]);
  });

  it('keeps chat -q sessions in PostgreSQL and resumes them from there', async () => {
    const server = await startScriptedServer(script().text('Forty-two.').next().text('Still 42.'));
    try {
      const { url } = await database();
      configureScriptedModel(server.url, `storage:\n  backend: postgres\n  url: ${url}\n`);
      const cwd = workDir();
      const first = await runHermes(['chat', '-q', 'answer?', '--json', '--quiet'], cwd);
      expect(first.stderr).toBe('');
      const { sessionId } = JSON.parse(first.stdout) as { sessionId: string };
      const second = await runHermes(['chat', '-q', 'again?', '--resume', sessionId], cwd);
      expect(second.stdout).toContain('Still 42.');
      const stored = await PostgresSessionStore.connect({ url });
      try {
        const rows = await stored.getMessages(sessionId);
        expect(rows.map((row) => row.message.content)).toEqual([
          'answer?',
          'Forty-two.',
          'again?',
          'Still 42.',
        ]);
      } finally {
        await stored.close();
      }
      expect(existsSync(join(home(), 'state.db'))).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('doctor checks the database: reachable with its schema, or a failure naming the fix', async () => {
    const { url, shown } = await database();
    usePostgres(url);
    type Check = { name: string; status: string; detail: string; fix?: string };
    const storageCheck = async () => {
      const result = await hermes(['doctor', '--offline', '--json']);
      expect(result.stdout).not.toContain('pg-secret-pw');
      const { checks } = JSON.parse(result.stdout) as { checks: Check[] };
      return checks.find((check) => check.name === 'storage');
    };
    expect(await storageCheck()).toMatchObject({
      status: 'ok',
      detail: expect.stringContaining(`at ${shown}, schema hermes`),
    });
    usePostgres('postgres://hermes:pg-secret-pw@127.0.0.1:1/nowhere');
    expect(await storageCheck()).toMatchObject({
      status: 'fail',
      fix: expect.stringContaining('storage.url'),
    });
  });

  it('refuses a copy with no PostgreSQL target or the wrong direction, naming the fix', async () => {
    await writeSessions(home());
    const none = await hermes(['storage', 'copy', '--from', 'sqlite', '--to', 'postgres']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('storage.backend: postgres');
    const wrong = await hermes(['storage', 'copy', '--from', 'postgres', '--to', 'sqlite']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--from sqlite --to postgres');
  });
});
