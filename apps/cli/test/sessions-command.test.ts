/** `hermes sessions …` in-process, over sessions written by the real SqliteSessionStore. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../src/index.ts';
import { capture } from './capture.ts';
import { writeSessions } from './sessions-fixture.ts';

const home = () => process.env.HERMES_HOME as string;

async function sessions(...argv: string[]) {
  const c = capture();
  const code = await main(['sessions', ...argv], c.io);
  return { code, stdout: c.stdout(), stderr: c.stderr() };
}

describe('hermes sessions without a database', () => {
  it('lists nothing and creates nothing', async () => {
    expect(await sessions('list')).toMatchObject({ code: 0, stdout: 'No sessions yet.\n' });
    expect((await sessions('show', 'abc')).code).toBe(1);
    expect(existsSync(join(home(), 'state.db'))).toBe(false);
  });
});

describe('hermes sessions', () => {
  it('lists sessions newest first with their title, model and message count', async () => {
    const { old, recent } = await writeSessions(home());
    const result = await sessions('list');
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+STARTED\s+SOURCE\s+MODEL\s+MSGS\s+TITLE$/);
    expect(lines[1]).toContain(recent);
    expect(lines[1]).toMatch(/claude-x\s+4\s+Fix the deploy script/);
    expect(lines[2]).toContain(old);
    const json = JSON.parse((await sessions('list', '--json', '--limit', '1')).stdout) as unknown[];
    expect(json).toHaveLength(1);
  });

  it('shows a session by unique id prefix, with its transcript and tool calls', async () => {
    const { recent } = await writeSessions(home());
    const result = await sessions('show', recent.slice(0, 12));
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`session   ${recent}`);
    expect(result.stdout).toContain('user: My deploy.py script crashes with a KeyError');
    expect(result.stdout).toContain('→ read_file({"path":"deploy.py"})');
    expect(result.stdout).toContain('tool read_file: config = os.environ["DEPLOY_TARGET"]');
  });

  it('searches every message and groups the hits by session', async () => {
    const { old, recent } = await writeSessions(home());
    const result = await sessions('search', 'KeyError');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(recent);
    expect(result.stdout).not.toContain(old);
    expect(result.stdout).toMatch(/user: .*KeyError/);
    expect((await sessions('search', 'borrow', 'checker')).stdout).toContain(old);
    expect((await sessions('search', 'zebra-nothing')).stdout).toContain('No messages match');
  });

  it('exports JSON and trajectory JSON Lines', async () => {
    const { recent } = await writeSessions(home());
    const json = JSON.parse((await sessions('export', recent)).stdout) as {
      format: string;
      messages: unknown[];
    };
    expect(json.format).toBe('hermes.session');
    expect(json.messages).toHaveLength(4);
    const out = join(home(), 'out.jsonl');
    expect((await sessions('export', recent, '--jsonl', '-o', out)).code).toBe(0);
    const lines = readFileSync(out, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string });
    expect(lines[0]).toEqual({ type: 'session', sessionId: recent });
    expect(lines.filter((l) => l.type === 'message')).toHaveLength(4);
  });

  it('deletes one session and prunes ended old ones', async () => {
    const { old, recent } = await writeSessions(home());
    expect((await sessions('prune', '--older-than', '30')).stdout).toBe(
      'Pruned 1 ended session older than 30 days.\n',
    );
    expect((await sessions('show', old)).code).toBe(1);
    expect((await sessions('delete', recent)).stdout).toBe(`Deleted session ${recent}.\n`);
    expect((await sessions('list')).stdout).toBe('No sessions yet.\n');
  });

  it('rejects bad arguments as usage errors', async () => {
    expect((await sessions('frob')).code).toBe(2);
    expect((await sessions('list', '--limit', '0')).code).toBe(2);
    expect((await sessions('prune')).code).toBe(2);
  });
});
