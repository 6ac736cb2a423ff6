import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  findBundledSkillsDir,
  readSkillFile,
  SkillsLibrary,
  scanSkillContent,
} from '../src/index.js';

const bundled = findBundledSkillsDir();
if (!bundled) throw new Error('the repository skills/ folder was not found');
const root = bundled;

function skillFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name === 'SKILL.md')
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

describe('bundled skills', () => {
  const files = skillFiles(root);

  it('ships between 6 and 10 skills, all discovered without problems', () => {
    expect(files.length).toBeGreaterThanOrEqual(6);
    expect(files.length).toBeLessThanOrEqual(10);
    const catalog = new SkillsLibrary({ bundledDir: root }).catalog();
    expect(catalog.problems).toEqual([]);
    expect(catalog.skills).toHaveLength(files.length);
  });

  it.each(files.map((f) => [relative(root, f), f]))(
    '%s validates and is a real procedure',
    (_rel, file) => {
      const { frontMatter, body } = readSkillFile(file);
      const folder = basename(dirname(file));
      expect(frontMatter.name).toBe(folder);
      expect(frontMatter.metadata?.hermes?.category).toBe(basename(dirname(dirname(file))));
      expect(body.length).toBeGreaterThan(1500);
      expect(body).toMatch(/^## Pitfalls/m);
      expect(body).toMatch(/^## Verify/m);
      expect(scanSkillContent(readFileSync(file, 'utf8')).findings).toEqual([]);
    },
  );

  it('references only supporting files that exist', () => {
    const library = new SkillsLibrary({ bundledDir: root });
    let references = 0;
    for (const skill of library.skills()) {
      for (const match of skill.body.matchAll(/skill_view\("([^"]+)",\s*"([^"]+)"\)/g)) {
        expect(match[1]).toBe(skill.name);
        const file = join(skill.dir, match[2] ?? '');
        expect(() => readFileSync(file), file).not.toThrow();
        references++;
      }
    }
    expect(references).toBeGreaterThanOrEqual(2);
  });

  it('offers the terminal fallback for web summaries only when the web toolset is off', () => {
    const library = new SkillsLibrary({ bundledDir: root });
    const withWeb = library
      .available({ availableToolsets: ['web', 'terminal'] })
      .map((s) => s.name);
    const withoutWeb = library.available({ availableToolsets: ['terminal'] }).map((s) => s.name);
    expect(withWeb).toContain('web-page-summary');
    expect(withWeb).not.toContain('web-page-summary-terminal');
    expect(withoutWeb).toContain('web-page-summary-terminal');
    expect(withoutWeb).not.toContain('web-page-summary');
  });
});
