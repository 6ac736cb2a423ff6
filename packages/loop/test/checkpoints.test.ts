/**
 * Checkpoints and `/rollback` in `createAgent`, driven by the testkit's scripted model: the
 * working directory is snapshotted into a shadow git repository under `HERMES_HOME/checkpoints`
 * before the first file-changing tool call of a turn, and a rollback restores it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ScriptBuilder, script, startScriptedServer } from '@hermes/testkit';
import { describe, expect, it } from 'vitest';
import { type CreateAgentConfigInput, createAgent, isReadOnlyCommand } from '../src/index.js';

type Body = { messages: { role: string; content: unknown }[] };

/** A working directory inside this test's HERMES_HOME, with `files` in it. */
function workdir(files: Record<string, string> = {}): { home: string; cwd: string } {
  const home = process.env.HERMES_HOME ?? '';
  const cwd = join(home, 'work');
  mkdirSync(cwd, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(cwd, name), text);
  return { home, cwd };
}

/** An agent on a scripted model; `run` closes both afterwards. */
async function withAgent(
  turns: ScriptBuilder,
  extra: Partial<CreateAgentConfigInput>,
  run: (created: ReturnType<typeof createAgent>, requests: () => Body[]) => Promise<void>,
) {
  const { home, cwd } = workdir();
  const server = await startScriptedServer(turns);
  const created = createAgent({
    provider: {
      provider: 'openai',
      model: 'm',
      apiKey: 'k',
      baseUrl: server.baseUrl('openai-chat'),
    },
    hermesHome: home,
    cwd,
    yolo: true,
    // No side requests (session titles, reviews) may take the scripted answers.
    learning: { enabled: false, titles: false },
    ...extra,
  });
  try {
    await run(created, () => server.requests.map((r) => r.body as Body));
  } finally {
    await created.close();
    await server.close();
  }
}

describe('checkpoints', () => {
  it('restores a file the agent overwrote, removes the file it created, and tells the model', async () => {
    const { cwd } = workdir({ 'notes.txt': 'original\n', 'keep.txt': 'untouched\n' });
    const turns = script()
      .toolCall('write_file', { path: join(cwd, 'notes.txt'), content: 'overwritten\n' })
      .next()
      .toolCall('write_file', { path: join(cwd, 'new.txt'), content: 'fresh\n' })
      .next()
      .text('done')
      .next()
      .text('noted');
    await withAgent(turns, {}, async ({ agent, checkpoints }, requests) => {
      await agent.runConversation('rewrite the notes');
      expect(readFileSync(join(cwd, 'notes.txt'), 'utf8')).toBe('overwritten\n');
      // Two writes in one turn: one checkpoint, named after the first.
      const list = await checkpoints.list();
      expect(list).toHaveLength(1);
      expect(list[0]?.trigger).toBe('write_file');
      const listing = await checkpoints.command('');
      expect(listing).toMatch(/^1\. \d{4}-\d\d-\d\dT.* before write_file$/m);
      expect(listing).toContain('notes.txt');
      expect(listing).toContain('new.txt');
      expect(listing).not.toContain('keep.txt');

      const answer = await checkpoints.command('1');
      expect(answer).toContain('Restored: notes.txt');
      expect(answer).toContain('Removed: new.txt');
      expect(readFileSync(join(cwd, 'notes.txt'), 'utf8')).toBe('original\n');
      expect(readFileSync(join(cwd, 'keep.txt'), 'utf8')).toBe('untouched\n');
      expect(existsSync(join(cwd, 'new.txt'))).toBe(false);

      await agent.runConversation('what happened?');
      const last = JSON.stringify(requests().at(-1)?.messages);
      expect(last).toContain('the user ran /rollback');
      expect(last).toContain('Restored: notes.txt');
      // The note is for one turn only.
      expect(JSON.stringify(requests()[0]?.messages)).not.toContain('/rollback');
    });
  });

  it('checkpoints a terminal write but not `ls`, at most once per turn', async () => {
    const turns = script()
      .toolCall('terminal', { command: 'ls' })
      .next()
      .text('listed')
      .next()
      .toolCall('terminal', { command: 'echo x > f.txt' })
      .next()
      .toolCall('terminal', { command: 'echo y > g.txt' })
      .next()
      .text('wrote');
    await withAgent(turns, {}, async ({ agent, checkpoints }) => {
      await agent.runConversation('look around');
      expect(await checkpoints.list()).toHaveLength(0);
      await agent.runConversation('write something');
      const [first, ...rest] = await checkpoints.list();
      expect(rest).toHaveLength(0);
      expect(first?.trigger).toBe('terminal');
      expect(readFileSync(join(workdir().cwd, 'f.txt'), 'utf8')).toBe('x\n');
      const answer = await checkpoints.command('1');
      expect(answer).toContain('Removed: f.txt, g.txt');
      expect(existsSync(join(workdir().cwd, 'f.txt'))).toBe(false);
    });
  });

  it('parallel writes in one response wait for the one checkpoint, which has both originals', async () => {
    const { cwd } = workdir({ 'a.txt': 'a0\n', 'b.txt': 'b0\n' });
    const turns = script()
      .toolCall('write_file', { path: join(cwd, 'a.txt'), content: 'a1\n' })
      .toolCall('write_file', { path: join(cwd, 'b.txt'), content: 'b1\n' })
      .next()
      .text('both');
    await withAgent(turns, {}, async ({ agent, checkpoints }) => {
      await agent.runConversation('write both');
      expect(await checkpoints.list()).toHaveLength(1);
      expect(await checkpoints.command('1')).toContain('Restored: a.txt, b.txt');
      expect(readFileSync(join(cwd, 'a.txt'), 'utf8')).toBe('a0\n');
      expect(readFileSync(join(cwd, 'b.txt'), 'utf8')).toBe('b0\n');
    });
  });

  it('leaves ignored files and files outside the directory alone', async () => {
    const { home, cwd } = workdir({ '.gitignore': 'build/\n', 'src.txt': 's0\n' });
    mkdirSync(join(cwd, 'build'));
    writeFileSync(join(cwd, 'build', 'cache.bin'), 'c0');
    const outside = join(home, 'outside.txt');
    writeFileSync(outside, 'o0');
    const turns = script()
      .toolCall('write_file', { path: join(cwd, 'src.txt'), content: 's1\n' })
      .toolCall('write_file', { path: join(cwd, 'build', 'cache.bin'), content: 'c1' })
      .toolCall('write_file', { path: join(cwd, 'build', 'new.bin'), content: 'n1' })
      .toolCall('write_file', { path: outside, content: 'o1' })
      .next()
      .text('done');
    await withAgent(turns, {}, async ({ agent, checkpoints }) => {
      await agent.runConversation('build');
      const answer = await checkpoints.command('1');
      expect(answer).toContain('Restored: src.txt\n');
      expect(answer).toContain('Removed: nothing');
    });
    expect(readFileSync(join(cwd, 'src.txt'), 'utf8')).toBe('s0\n');
    expect(readFileSync(join(cwd, 'build', 'cache.bin'), 'utf8')).toBe('c1');
    expect(readFileSync(join(cwd, 'build', 'new.bin'), 'utf8')).toBe('n1');
    expect(readFileSync(outside, 'utf8')).toBe('o1');
  });

  it('skips a directory over the file limit with a notice, and the write still happens', async () => {
    const { cwd } = workdir({ a: '1', b: '2', c: '3', d: '4' });
    const turns = script()
      .toolCall('write_file', { path: join(cwd, 'a'), content: 'changed' })
      .next()
      .text('done');
    await withAgent(turns, { checkpoints: { maxFiles: 3 } }, async ({ agent, checkpoints }) => {
      const seen: string[] = [];
      checkpoints.onNotice((notice) => seen.push(notice));
      await agent.runConversation('change a');
      expect(readFileSync(join(cwd, 'a'), 'utf8')).toBe('changed');
      expect(await checkpoints.list()).toHaveLength(0);
      expect(seen).toHaveLength(1);
      expect(seen[0]).toContain('over the limit of 3 files');
      expect(await checkpoints.command('')).toContain('Last notice: Checkpoint skipped');
    });
  });

  it('skips a directory over the byte limit', async () => {
    const { cwd } = workdir({ big: 'x'.repeat(5000) });
    const turns = script()
      .toolCall('write_file', { path: join(cwd, 'small'), content: 's' })
      .next()
      .text('done');
    await withAgent(turns, { checkpoints: { maxBytes: 1000 } }, async ({ agent, checkpoints }) => {
      await agent.runConversation('write');
      expect(await checkpoints.list()).toHaveLength(0);
      expect(checkpoints.notices()[0]).toMatch(/over the limit of .*checkpoints\.max_bytes/);
    });
  });

  it('never touches the user’s own .git and keeps the shadow repository under HERMES_HOME', async () => {
    const { home, cwd } = workdir({ 'a.txt': 'one\n' });
    execFileSync('git', ['init', '--quiet', cwd]);
    const turns = script()
      .toolCall('write_file', { path: join(cwd, 'a.txt'), content: 'two\n' })
      .next()
      .text('done');
    await withAgent(turns, {}, async ({ agent, checkpoints }) => {
      await agent.runConversation('edit');
      await checkpoints.command('1');
      expect(readFileSync(join(cwd, 'a.txt'), 'utf8')).toBe('one\n');
    });
    // The user's repository is as `git init` left it: no index, no commit.
    expect(existsSync(join(cwd, '.git', 'index'))).toBe(false);
    expect(readdirSync(join(cwd, '.git', 'refs', 'heads'))).toEqual([]);
    expect(readdirSync(join(home, 'checkpoints'))).toHaveLength(1);
  });

  it('leaves the agent’s own data out when the working directory is HERMES_HOME', async () => {
    const home = process.env.HERMES_HOME ?? '';
    writeFileSync(join(home, 'todo.txt'), 'first\n');
    const turns = script()
      .toolCall('write_file', { path: join(home, 'todo.txt'), content: 'second\n' })
      .next()
      .text('done');
    await withAgent(turns, { cwd: home }, async ({ agent, checkpoints }) => {
      await agent.runConversation('edit');
      const tracked = execFileSync(
        'git',
        [`--git-dir=${checkpoints.shadowDir}`, 'ls-tree', '-r', '--name-only', 'HEAD'],
        { env: { PATH: process.env.PATH ?? '' } },
      ).toString();
      expect(tracked.split('\n').filter(Boolean)).toEqual(['todo.txt']);
      const answer = await checkpoints.command('1');
      expect(answer).toContain('Restored: todo.txt');
      expect(answer).toContain('Removed: nothing');
      expect(readFileSync(join(home, 'todo.txt'), 'utf8')).toBe('first\n');
      // The session store survived the rollback: the next turn still persists.
      expect(existsSync(join(home, 'state.db'))).toBe(true);
    });
  });

  it('skips with one notice, and never fails the turn, when git is not on PATH', async () => {
    const { cwd } = workdir();
    const turns = script()
      .toolCall('write_file', { path: join(cwd, 'a.txt'), content: 'a' })
      .next()
      .text('one')
      .next()
      .toolCall('write_file', { path: join(cwd, 'b.txt'), content: 'b' })
      .next()
      .text('two');
    const path = process.env.PATH;
    process.env.PATH = join(cwd, 'no-bin');
    try {
      await withAgent(turns, {}, async ({ agent, checkpoints }) => {
        expect((await agent.runConversation('a')).finalResponse).toBe('one');
        expect((await agent.runConversation('b')).finalResponse).toBe('two');
        expect(checkpoints.notices()).toEqual(['Checkpoints are off: git is not on PATH.']);
        expect(readFileSync(join(cwd, 'b.txt'), 'utf8')).toBe('b');
      });
    } finally {
      process.env.PATH = path;
    }
  });

  it('takes none when checkpoints are disabled; /rollback says so', async () => {
    const { cwd } = workdir();
    const turns = script()
      .toolCall('write_file', { path: join(cwd, 'a.txt'), content: 'a' })
      .next()
      .text('done');
    await withAgent(turns, { checkpoints: { enabled: false } }, async ({ agent, checkpoints }) => {
      await agent.runConversation('a');
      expect(await checkpoints.list()).toHaveLength(0);
      const answer = await checkpoints.command('');
      expect(answer).toContain('Checkpoints are off');
      expect(await checkpoints.command('7')).toBe(
        'There is no checkpoint 7; /rollback lists them.',
      );
      expect(await checkpoints.command('x')).toMatch(/^Usage: /);
    });
  });
});

describe('isReadOnlyCommand', () => {
  it.each([
    ['ls -la', true],
    ['cat a.txt | grep x | wc -l', true],
    ['git status && git log -3', true],
    ['ls 2>&1 >/dev/null', true],
    ['echo $(pwd)', true],
    ['echo x > f.txt', false],
    ['echo x >> f.txt', false],
    ['rm a.txt', false],
    ['find . -delete', false],
    ['echo $(touch a)', false],
    ['git checkout .', false],
    ['git -C /tmp status', false],
    ['sort -o out.txt in.txt', false],
    ['$CMD', false],
    ['tee out.txt < in.txt', false],
    ['npm install', false],
  ])('%s → read-only %s', (command, expected) => {
    expect(isReadOnlyCommand(command)).toBe(expected);
  });
});
