import { existsSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { localSkillsDir, SkillsLibrary } from '../src/index.js';
import { hermesHome, skillText, writeSkill } from './support.js';

function snapshotPath(): string {
  return join(hermesHome(), 'cache', 'skills-snapshot.json');
}

// A whole second, so setting it again reproduces the exact same mtime.
const FIXED_TIME = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);

/** Rewrites a file with same-length content and the same mtime, so only a parse can tell. */
function rewriteKeepingSignature(file: string, from: string, to: string): void {
  expect(to.length).toBe(from.length);
  const size = statSync(file).size;
  writeFileSync(file, readFileSync(file, 'utf8').replace(from, to));
  utimesSync(file, FIXED_TIME, FIXED_TIME);
  expect(statSync(file).size).toBe(size);
}

describe('cross-process parse snapshot', () => {
  it('is written to HERMES_HOME/cache and reused by a new library while signatures match', () => {
    const dir = writeSkill(localSkillsDir(), 'snap', {
      frontMatter: { description: 'Original AAAA.' },
    });
    utimesSync(join(dir, 'SKILL.md'), FIXED_TIME, FIXED_TIME);
    expect(new SkillsLibrary().get('snap')?.description).toBe('Original AAAA.');
    expect(existsSync(snapshotPath())).toBe(true);

    const file = join(dir, 'SKILL.md');
    rewriteKeepingSignature(file, 'Original AAAA.', 'Original BBBB.');
    // Same mtime and size: the snapshot's parse is trusted, the file is not read again.
    expect(new SkillsLibrary().get('snap')?.description).toBe('Original AAAA.');

    const later = new Date(Date.now() + 5000);
    utimesSync(file, later, later);
    expect(new SkillsLibrary().get('snap')?.description).toBe('Original BBBB.');
  });

  it('keeps invalid-file problems in the snapshot too', () => {
    const dir = writeSkill(localSkillsDir(), 'broken');
    writeFileSync(join(dir, 'SKILL.md'), skillText({ name: 'Broken', description: 'd' }));
    const first = new SkillsLibrary().catalog().problems;
    const second = new SkillsLibrary().catalog().problems;
    expect(second).toEqual(first);
    expect(second[0]?.message).toMatch(/"name" must start with/);
  });

  it('ignores a corrupt or foreign snapshot and can be switched off', () => {
    writeSkill(localSkillsDir(), 'ok');
    new SkillsLibrary().skills();
    writeFileSync(snapshotPath(), '{"version": 99, "files": {}}');
    expect(new SkillsLibrary().get('ok')?.name).toBe('ok');
    writeFileSync(snapshotPath(), 'not json');
    expect(new SkillsLibrary().get('ok')?.name).toBe('ok');
    expect(JSON.parse(readFileSync(snapshotPath(), 'utf8')).version).toBe(1);

    const own = join(hermesHome(), 'elsewhere.json');
    new SkillsLibrary({ snapshotFile: false }).skills();
    new SkillsLibrary({ snapshotFile: own }).skills();
    expect(existsSync(own)).toBe(true);
  });
});
