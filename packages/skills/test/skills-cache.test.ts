import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { localSkillsDir, SkillsLibrary } from '../src/index.js';
import { skillText, tempRoot, writeSkill } from './support.js';

/** Pushes a path's mtime into the future so a change is visible regardless of clock resolution. */
function touch(path: string, secondsAhead: number): void {
  const when = new Date(Date.now() + secondsAhead * 1000);
  utimesSync(path, when, when);
}

describe('mtime cache', () => {
  it('reuses the catalog and the index while nothing changed', () => {
    writeSkill(localSkillsDir(), 'one', { category: 'c' });
    const library = new SkillsLibrary();
    const first = library.catalog();
    const index = library.buildIndex({ platform: 'cli' });
    expect(library.catalog()).toBe(first);
    expect(library.buildIndex({ platform: 'cli' })).toBe(index);
  });

  it('sees a new skill in an existing category (category folder mtime)', () => {
    const local = localSkillsDir();
    writeSkill(local, 'one', { category: 'c' });
    const library = new SkillsLibrary();
    const first = library.catalog();
    writeSkill(local, 'two', { category: 'c' });
    touch(join(local, 'c'), 5);
    expect(library.catalog()).not.toBe(first);
    expect(library.skills().map((s) => s.name)).toEqual(['one', 'two']);
  });

  it('sees a new category and a removed skill (root folder mtime)', () => {
    const root = tempRoot('external');
    writeSkill(root, 'one', { category: 'c' });
    const library = new SkillsLibrary({ externalDirs: [root] });
    expect(library.skills()).toHaveLength(1);
    writeSkill(root, 'two', { category: 'd' });
    touch(root, 5);
    expect(library.skills().map((s) => s.name)).toEqual(['one', 'two']);
    rmSync(join(root, 'c'), { recursive: true });
    touch(root, 10);
    expect(library.skills().map((s) => s.name)).toEqual(['two']);
  });

  it('sees an in-place edit of a SKILL.md (file mtime and size)', () => {
    const dir = writeSkill(localSkillsDir(), 'one', { category: 'c' });
    const library = new SkillsLibrary();
    expect(library.buildIndex()).toContain('Use one when needed.');
    writeFileSync(join(dir, 'SKILL.md'), skillText({ name: 'one', description: 'Changed text.' }));
    touch(join(dir, 'SKILL.md'), 5);
    expect(library.buildIndex()).toContain('- one [c]: Changed text.');
  });

  it('sees a SKILL.md written into a skill folder that was empty at the last read', () => {
    const local = localSkillsDir();
    writeSkill(local, 'one', { category: 'c' });
    const pending = join(local, 'c', 'two');
    mkdirSync(pending);
    // A whole second, so restoring it reproduces the category folder's exact signature.
    const categoryTime = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
    utimesSync(join(local, 'c'), categoryTime, categoryTime);
    const library = new SkillsLibrary();
    expect(library.skills().map((s) => s.name)).toEqual(['one']);
    writeFileSync(join(pending, 'SKILL.md'), skillText({ name: 'two', description: 'Second.' }));
    touch(pending, 5);
    utimesSync(join(local, 'c'), categoryTime, categoryTime);
    expect(library.skills().map((s) => s.name)).toEqual(['one', 'two']);
  });

  it('notices a skills root that appears after the first read', () => {
    const library = new SkillsLibrary();
    expect(library.skills()).toEqual([]);
    writeSkill(localSkillsDir(), 'late');
    expect(library.skills().map((s) => s.name)).toEqual(['late']);
  });
});
