import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommandApproval } from '@hermes/approval';
import { LocalEnvironment } from '@hermes/environments';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPatchTool } from '../../src/core/patch.js';
import { createReadFileTool, MAX_READ_CHARS } from '../../src/core/read-file.js';
import { createWriteFileTool } from '../../src/core/write-file.js';
import { call, makeContext, text } from './context.js';

let dir: string;
let env: LocalEnvironment;
const ctx = (approval?: CommandApproval) =>
  makeContext({ environment: env, ...(approval ? { approval } : {}) });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hermes-files-'));
  env = new LocalEnvironment({ cwd: dir, loginShellEnv: false });
});
afterEach(async () => {
  await env.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

/** A guard that blocks writes under any directory named `secret`. */
const guard: CommandApproval = {
  approve: async () => ({
    allowed: false,
    verdict: { decision: 'block', stage: 'hardline', reason: 'no' },
  }),
  checkFileWrite: (path) =>
    path.includes('secret')
      ? { decision: 'block', stage: 'write_guard', reason: 'protected location' }
      : { decision: 'allow', stage: 'write_guard', reason: 'ok' },
};

describe('read_file', () => {
  const read = createReadFileTool();

  it('numbers lines from 1 and pages with offset/limit', async () => {
    writeFileSync(
      join(dir, 'a.txt'),
      Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join('\n'),
    );
    const first = await text(call(read, { path: 'a.txt', limit: 3 }, ctx()));
    expect(first).toBe(
      ' 1|line 1\n 2|line 2\n 3|line 3\n[lines 1-3 of 12; continue with offset=4]'.replace(
        /^ /gm,
        '',
      ),
    );
    const last = await text(call(read, { path: 'a.txt', offset: 10 }, ctx()));
    expect(last).toBe('10|line 10\n11|line 11\n12|line 12\n[lines 10-12 of 12]');
  });

  it('refuses binary files and reports a missing one', async () => {
    writeFileSync(join(dir, 'b.bin'), Buffer.from([1, 0, 2, 3]));
    await expect(call(read, { path: 'b.bin' }, ctx())).rejects.toThrow(/binary file/);
    await expect(call(read, { path: 'nope.txt' }, ctx())).rejects.toThrow(/does not exist/);
  });

  it('caps output at 100,000 characters and says where to continue', async () => {
    writeFileSync(
      join(dir, 'wide.txt'),
      Array.from({ length: 200 }, () => 'x'.repeat(1_500)).join('\n'),
    );
    const out = await text(call(read, { path: 'wide.txt', limit: 200 }, ctx()));
    expect(out.length).toBeLessThan(MAX_READ_CHARS + 200);
    expect(out).toMatch(/output capped at 100,000 characters; continue with offset=\d+/);
  });

  it('cuts lines longer than 2,000 characters', async () => {
    writeFileSync(join(dir, 'long.txt'), `${'y'.repeat(5_000)}\nshort\n`);
    const out = await text(call(read, { path: 'long.txt' }, ctx()));
    expect(out).toBe(`1|${'y'.repeat(2_000)}… [line truncated]\n2|short\n[lines 1-2 of 2]`);
  });

  it('reports an empty file and an offset past the end', async () => {
    writeFileSync(join(dir, 'e.txt'), '');
    expect(await text(call(read, { path: 'e.txt' }, ctx()))).toContain('empty');
    writeFileSync(join(dir, 'f.txt'), 'one\n');
    expect(await text(call(read, { path: 'f.txt', offset: 5 }, ctx()))).toContain('past the end');
    await expect(call(read, { path: 'f.txt', offset: 0 }, ctx())).rejects.toThrow(/1-based/);
  });
});

describe('write_file', () => {
  const write = createWriteFileTool();

  it('creates parent directories and reports bytes', async () => {
    const out = await text(
      call(write, { path: 'deep/er/new.txt', content: 'héllo\nworld\n' }, ctx()),
    );
    expect(out).toBe('Created deep/er/new.txt: 13 bytes, 2 lines.');
    expect(readFileSync(join(dir, 'deep/er/new.txt'), 'utf8')).toBe('héllo\nworld\n');
    expect(await text(call(write, { path: 'deep/er/new.txt', content: 'x' }, ctx()))).toMatch(
      /^Overwrote/,
    );
  });

  it('gives the guard the path resolved against the environment cwd', async () => {
    const seen: string[] = [];
    const spy: CommandApproval = {
      ...guard,
      checkFileWrite: (path) => {
        seen.push(path);
        return { decision: 'allow', stage: 'write_guard', reason: 'ok' };
      },
    };
    await call(write, { path: 'rel/x.txt', content: '' }, ctx(spy));
    const blocking: CommandApproval = {
      ...guard,
      checkFileWrite: (path) => {
        seen.push(path);
        return { decision: 'block', stage: 'write_guard', reason: 'no' };
      },
    };
    await expect(
      call(write, { path: '~/elsewhere.txt', content: '' }, ctx(blocking)),
    ).rejects.toThrow(/refused: no/);
    expect(seen).toEqual([join(dir, 'rel/x.txt'), '~/elsewhere.txt']);
  });

  it('is refused by the file-write guard, leaving nothing behind', async () => {
    await expect(call(write, { path: 'secret/key.txt', content: 'x' }, ctx(guard))).rejects.toThrow(
      /refused: protected location/,
    );
    expect(existsSync(join(dir, 'secret'))).toBe(false);
    expect(await text(call(write, { path: 'ok.txt', content: 'x' }, ctx(guard)))).toMatch(
      /^Created/,
    );
  });
});

describe('patch', () => {
  const patch = createPatchTool();

  it('replaces through the fuzzy matcher and returns a unified diff', async () => {
    writeFileSync(join(dir, 'm.py'), 'def f():\n    return 1\n');
    const out = await text(
      call(patch, { path: 'm.py', old_string: 'return 1', new_string: 'return 2' }, ctx()),
    );
    expect(out).toContain('exact match');
    expect(out).toContain('--- a/m.py\n+++ b/m.py');
    expect(out).toContain('-    return 1\n+    return 2');
    expect(readFileSync(join(dir, 'm.py'), 'utf8')).toBe('def f():\n    return 2\n');
  });

  it('refuses an ambiguous match with candidate lines and leaves the file alone', async () => {
    writeFileSync(join(dir, 'a.txt'), 'x = 1\ny\nx = 1\n');
    await expect(
      call(patch, { path: 'a.txt', old_string: 'x = 1', new_string: 'x = 2' }, ctx()),
    ).rejects.toThrow(/line 1[\s\S]*line 3/);
    await expect(
      call(patch, { path: 'a.txt', old_string: 'y', new_string: 'y' }, ctx()),
    ).rejects.toThrow(/identical/);
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('x = 1\ny\nx = 1\n');
  });

  it('applies a multi-file unified diff, creating new files', async () => {
    writeFileSync(join(dir, 'one.txt'), 'a\nb\nc\n');
    const diff = [
      '--- a/one.txt',
      '+++ b/one.txt',
      '@@ -1,3 +1,3 @@',
      ' a',
      '-b',
      '+B',
      ' c',
      '--- /dev/null',
      '+++ b/sub/two.txt',
      '@@ -0,0 +1,1 @@',
      '+fresh',
      '',
    ].join('\n');
    const out = await text(call(patch, { mode: 'patch', patch: diff }, ctx()));
    expect(out).toContain('diff applied to 2 file(s)');
    expect(readFileSync(join(dir, 'one.txt'), 'utf8')).toBe('a\nB\nc\n');
    expect(readFileSync(join(dir, 'sub/two.txt'), 'utf8')).toBe('fresh\n');
  });

  it('writes nothing when one file of a diff does not apply', async () => {
    writeFileSync(join(dir, 'one.txt'), 'a\nb\nc\n');
    writeFileSync(join(dir, 'two.txt'), 'q\n');
    const diff = [
      '--- a/one.txt',
      '+++ b/one.txt',
      '@@ -1,3 +1,3 @@',
      ' a',
      '-b',
      '+B',
      ' c',
      '--- a/two.txt',
      '+++ b/two.txt',
      '@@ -1,1 +1,1 @@',
      '-zzz',
      '+y',
      '',
    ].join('\n');
    await expect(call(patch, { mode: 'patch', patch: diff }, ctx())).rejects.toThrow(
      /does not apply to two.txt/,
    );
    expect(readFileSync(join(dir, 'one.txt'), 'utf8')).toBe('a\nb\nc\n');
  });

  it('passes the write guard for every file it would touch', async () => {
    writeFileSync(join(dir, 'ok.txt'), 'a\n');
    const diff = [
      '--- a/ok.txt',
      '+++ b/ok.txt',
      '@@ -1 +1 @@',
      '-a',
      '+b',
      '--- /dev/null',
      '+++ b/secret/x',
      '@@ -0,0 +1 @@',
      '+k',
      '',
    ].join('\n');
    await expect(call(patch, { mode: 'patch', patch: diff }, ctx(guard))).rejects.toThrow(
      /secret\/x refused/,
    );
    expect(readFileSync(join(dir, 'ok.txt'), 'utf8')).toBe('a\n');
  });

  it('explains missing arguments', async () => {
    await expect(call(patch, { path: 'x' }, ctx())).rejects.toThrow(/needs old_string/);
    await expect(call(patch, { mode: 'patch' }, ctx())).rejects.toThrow(/needs patch/);
    await expect(call(patch, { mode: 'patch', patch: 'not a diff' }, ctx())).rejects.toThrow(
      /no hunks/,
    );
  });
});
