/**
 * The lock and the drift guard against a second real process (`support/memory-child.mjs`, which
 * imports the built package): a held lock makes a write wait, a write re-reads the file under the
 * lock, an edit of a file another process changed is aborted, a lock left by a dead process is
 * broken, and concurrent writers lose nothing.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BuiltinMemoryStore, parseMemoryEntries } from '../src/index.js';
import { startChild } from './support/memory-child.harness.js';

/**
 * How long a write here may wait for the lock. Only a backstop: a loaded machine with three
 * processes taking turns must never hit the 10 s default and fail a write that would succeed.
 */
const LOCK_BACKSTOP_MS = 60_000;

function hermesHome(): string {
  const home = process.env.HERMES_HOME;
  if (!home) throw new Error('the test setup provides HERMES_HOME');
  return home;
}

describe('the memory file lock across processes', () => {
  it('makes a write wait for the other process, then re-reads what it wrote', async () => {
    const store = new BuiltinMemoryStore({ lock: { timeoutMs: LOCK_BACKSTOP_MS } });
    await store.write('memory', [{ action: 'add', content: 'first' }]);
    const holder = startChild({ mode: 'hold-lock', hermesHome: hermesHome() });
    await holder.waitFor('locked');
    let settled = false;
    const write = store
      .write('memory', [{ action: 'add', content: 'from the parent' }])
      .finally(() => {
        settled = true;
      });
    // While the child holds the lock the write cannot finish. No sleep is needed to show that it
    // waited: the child appends only after "go", so the parent's entry landing after the child's
    // (checked below) proves the parent's write waited for the lock.
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    holder.child.stdin.write('go\n');
    const result = await write;
    expect(result.ok).toBe(true);
    await holder.waitFor('released');
    expect((await holder.exited).code).toBe(0);
    const entries = parseMemoryEntries(readFileSync(store.pathOf('memory'), 'utf8'));
    expect(entries).toEqual(['first', 'from the child', 'from the parent']);
    expect(existsSync(`${store.pathOf('memory')}.lock`)).toBe(false);
  });

  it('aborts an edit when another process changed the file, then works on the fresh view', async () => {
    const store = new BuiltinMemoryStore();
    await store.write('memory', [{ action: 'add', content: 'Editor: Vim.' }]);
    await store.loadSnapshot();
    const other = startChild({
      mode: 'add',
      hermesHome: hermesHome(),
      prefix: 'other fact',
      count: 1,
    });
    await other.waitFor('done');
    expect((await other.exited).code).toBe(0);
    const onDisk = readFileSync(store.pathOf('memory'), 'utf8');

    const drifted = await store.write('memory', [
      { action: 'replace', oldText: 'Vim', content: 'Editor: Helix.' },
    ]);
    expect(drifted).toMatchObject({ ok: false, reason: 'drift' });
    expect(drifted.message).toContain('changed by another process');
    expect(drifted.entries).toEqual(['Editor: Vim.', 'other fact 0']);
    expect(readFileSync(store.pathOf('memory'), 'utf8')).toBe(onDisk);

    const retried = await store.write('memory', [
      { action: 'replace', oldText: 'Vim', content: 'Editor: Helix.' },
    ]);
    expect(retried).toMatchObject({ ok: true, entries: ['Editor: Helix.', 'other fact 0'] });
  });

  it('lets an add through after another process wrote, keeping both entries', async () => {
    const store = new BuiltinMemoryStore();
    await store.loadSnapshot();
    const other = startChild({ mode: 'add', hermesHome: hermesHome(), prefix: 'theirs', count: 1 });
    await other.waitFor('done');
    const result = await store.write('memory', [{ action: 'add', content: 'mine' }]);
    expect(result).toMatchObject({ ok: true, entries: ['theirs 0', 'mine'] });
  });

  it('breaks a lock left behind by a process that died holding it', async () => {
    const dying = startChild({ mode: 'die-holding-lock', hermesHome: hermesHome() });
    await dying.waitFor('locked');
    await dying.exited;
    const store = new BuiltinMemoryStore({ lock: { timeoutMs: LOCK_BACKSTOP_MS } });
    expect(existsSync(`${store.pathOf('memory')}.lock`)).toBe(true);
    const result = await store.write('memory', [{ action: 'add', content: 'after the crash' }]);
    expect(result.ok).toBe(true);
    expect(existsSync(`${store.pathOf('memory')}.lock`)).toBe(false);
  });

  it('gives up with a clear error when a live process keeps the lock', async () => {
    const store = new BuiltinMemoryStore({ lock: { timeoutMs: 200 } });
    mkdirSync(store.directory, { recursive: true });
    // A lock owned by this very test process (alive, fresh) is never judged stale.
    writeFileSync(
      `${store.pathOf('user')}.lock`,
      JSON.stringify({ pid: process.ppid, token: 'x', acquiredAt: Date.now() }),
    );
    const result = await store.write('user', [{ action: 'add', content: 'x' }]);
    expect(result).toMatchObject({ ok: false, reason: 'lock_timeout' });
    expect(result.message).toContain('waiting for the lock');
  });

  it('loses no entry when three processes add at once', async () => {
    const children = ['a', 'b'].map((prefix) =>
      startChild({
        mode: 'add',
        hermesHome: hermesHome(),
        prefix,
        count: 15,
        lockTimeoutMs: LOCK_BACKSTOP_MS,
      }),
    );
    const store = new BuiltinMemoryStore({
      memoryCharLimit: 10_000,
      lock: { timeoutMs: LOCK_BACKSTOP_MS },
    });
    for (let i = 0; i < 15; i++) {
      const result = await store.write('memory', [{ action: 'add', content: `p ${i}` }]);
      expect(result.ok).toBe(true);
    }
    for (const child of children) expect((await child.exited).code).toBe(0);
    const entries = parseMemoryEntries(readFileSync(store.pathOf('memory'), 'utf8'));
    expect(entries).toHaveLength(45);
    expect(new Set(entries).size).toBe(45);
  });
});
