/** End-to-end `hermes demo`: the built binary plays the scripted conversation with no key. */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSessionStore } from '@hermes/state';
import { describe, expect, it, onTestFinished } from 'vitest';
import { hermesHome, runHermes, workDir } from './chat-harness.ts';

describe('hermes demo', () => {
  it('plays the scripted tool loop, labelled as scripted, and exits 0 without touching HERMES_HOME', async () => {
    const result = await runHermes(['demo'], workDir());
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('SCRIPTED');
    expect(result.stdout).toMatch(/✍️ write_file {2}haiku\.txt .*✓/);
    expect(result.stdout).toMatch(/💻 terminal {2}ls -l .*✓/);
    expect(result.stdout).toMatch(/📖 read_file {2}haiku\.txt .*✓/);
    expect(result.stdout).toContain('That is 15 words');
    // The session got its title from the model after the first exchange.
    expect(result.stdout).toMatch(/saved as session \S+ "A sea haiku in a file"/);
    expect(result.stdout).toContain('hermes setup');
    // The user's data home (here the test's) was not used.
    expect(readdirSync(hermesHome())).toEqual([]);
  });

  it('--home keeps the demo session in the given data home', async () => {
    const home = mkdtempSync(join(tmpdir(), 'hermes-demo-kept-'));
    onTestFinished(() => rmSync(home, { recursive: true, force: true }));
    const result = await runHermes(['demo', '--home', home], workDir());
    expect(result.code).toBe(0);
    expect(existsSync(join(home, 'state.db'))).toBe(true);
    const store = openSessionStore({ hermesHome: home });
    try {
      const sessions = await store.listSessions();
      expect(sessions).toHaveLength(1);
      expect(sessions[0]?.title).toBe('A sea haiku in a file');
      const messages = await store.getMessages(sessions[0]?.id ?? '');
      // 2 user messages, 6 assistant messages, 4 tool results.
      expect(messages.map((m) => m.message.role).filter((r) => r === 'tool')).toHaveLength(4);
      expect(messages.filter((m) => m.message.role === 'user')).toHaveLength(2);
    } finally {
      await store.close();
    }
  });

  it('rejects an unknown option (exit 2)', async () => {
    const result = await runHermes(['demo', '--nope'], workDir());
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--nope');
  });
});
