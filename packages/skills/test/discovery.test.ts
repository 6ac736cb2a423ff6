import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findBundledSkillsDir, localSkillsDir, SkillsLibrary } from '../src/index.js';
import { hermesHome, tempRoot, writeSkill } from './support.js';

describe('discovery', () => {
  it('finds skills in HERMES_HOME/skills/<category>/<name> and <name>, with categories', () => {
    const local = localSkillsDir();
    expect(local).toBe(join(hermesHome(), 'skills'));
    writeSkill(local, 'alpha', { category: 'devops' });
    writeSkill(local, 'beta');
    writeSkill(local, 'gamma', {
      category: 'misc',
      frontMatter: { metadata: { hermes: { category: 'research' } } },
    });
    const skills = new SkillsLibrary().skills();
    expect(skills.map((s) => [s.name, s.category, s.source])).toEqual([
      ['alpha', 'devops', 'local'],
      ['beta', undefined, 'local'],
      ['gamma', 'research', 'local'],
    ]);
  });

  it('resolves name collisions: local > external (in order) > plugin > bundled', () => {
    const bundled = tempRoot('bundled');
    const plugin = tempRoot('plugin');
    const ext1 = tempRoot('ext1');
    const ext2 = tempRoot('ext2');
    for (const root of [bundled, plugin, ext1, ext2]) writeSkill(root, 'shared');
    writeSkill(bundled, 'only-bundled');
    writeSkill(plugin, 'plugin-and-bundled');
    writeSkill(bundled, 'plugin-and-bundled');
    const options = { bundledDir: bundled, pluginDirs: [plugin], externalDirs: [ext1, ext2] };

    const library = new SkillsLibrary(options);
    expect(library.get('shared')?.root).toBe(ext1);
    expect(library.get('plugin-and-bundled')?.source).toBe('plugin');
    expect(library.get('only-bundled')?.source).toBe('bundled');
    const hidden = library.catalog().problems.map((p) => p.message);
    expect(hidden.filter((m) => m.includes('"shared"'))).toHaveLength(3);
    expect(hidden.join('\n')).toMatch(/hidden by the same name in .*ext1.*rename one to use both/);

    writeSkill(localSkillsDir(), 'shared');
    expect(new SkillsLibrary(options).get('shared')?.source).toBe('local');
  });

  it('reports invalid skills as problems and keeps the valid ones', () => {
    const local = localSkillsDir();
    writeSkill(local, 'good');
    const bad = join(local, 'bad');
    mkdirSync(bad, { recursive: true });
    writeFileSync(join(bad, 'SKILL.md'), '---\nname: Bad\ndescription: x\n---\nbody\n');
    const catalog = new SkillsLibrary().catalog();
    expect(catalog.skills.map((s) => s.name)).toEqual(['good']);
    expect(catalog.problems).toHaveLength(1);
    expect(catalog.problems[0]?.file).toBe(join(bad, 'SKILL.md'));
    expect(catalog.problems[0]?.message).toMatch(/"name" must start with a lower-case letter/);
  });

  it('ignores dot folders, node_modules and missing roots', () => {
    const local = localSkillsDir();
    writeSkill(local, 'hidden', { category: '.hub' });
    writeSkill(local, 'dep', { category: 'node_modules' });
    const library = new SkillsLibrary({ externalDirs: [join(hermesHome(), 'does-not-exist')] });
    expect(library.skills()).toEqual([]);
  });

  it('finds the repository bundled skills folder by walking up', () => {
    const found = findBundledSkillsDir();
    expect(found).toMatch(/[\\/]skills$/);
    expect(findBundledSkillsDir('/')).toBeUndefined();
  });
});
