import { describe, expect, it } from 'vitest';
import {
  buildSkillsIndex,
  localSkillsDir,
  SKILLS_INDEX_HEADER,
  SkillsLibrary,
} from '../src/index.js';
import { writeSkill } from './support.js';

function names(index: string): string[] {
  return [...index.matchAll(/^- ([a-z0-9._-]+)/gm)].map((m) => m[1] ?? '');
}

function hermes(extra: Record<string, unknown>) {
  return { frontMatter: { metadata: { hermes: extra } } };
}

describe('skills index', () => {
  it('renders one line per skill with category and a flattened, capped description', () => {
    const local = localSkillsDir();
    writeSkill(local, 'zeta', { category: 'devops' });
    writeSkill(local, 'alpha', {
      category: 'research',
      frontMatter: { description: `Line one\nline two ${'x'.repeat(300)}` },
    });
    const index = new SkillsLibrary().buildIndex();
    expect(index.startsWith(SKILLS_INDEX_HEADER)).toBe(true);
    const lines = index.split('\n').filter((l) => l.startsWith('- '));
    expect(lines[0]).toBe('- zeta [devops]: Use zeta when needed.');
    expect(lines[1]).toMatch(/^- alpha \[research\]: Line one line two x+…$/);
    expect(lines[1]?.length).toBeLessThan(230);
    expect(index).toContain('<available_skills>');
  });

  it('is empty when there are no skills', () => {
    expect(new SkillsLibrary().buildIndex()).toBe('');
  });

  it('filters by platform: OS names (with aliases) and chat surfaces', () => {
    const local = localSkillsDir();
    writeSkill(local, 'anywhere');
    writeSkill(local, 'mac-only', { frontMatter: { platforms: ['macos'] } });
    writeSkill(local, 'linux-only', { frontMatter: { platforms: ['Linux'] } });
    writeSkill(local, 'chat-only', { frontMatter: { platforms: ['slack', 'telegram'] } });
    const library = new SkillsLibrary();
    expect(names(library.buildIndex({ os: 'darwin', platform: 'cli' }))).toEqual([
      'anywhere',
      'mac-only',
    ]);
    expect(names(library.buildIndex({ os: 'linux', platform: 'telegram' }))).toEqual([
      'anywhere',
      'chat-only',
      'linux-only',
    ]);
    expect(names(library.buildIndex({ os: 'win32', platform: ['cli'] }))).toEqual(['anywhere']);
  });

  it('hides skills whose required toolsets or tools are unavailable', () => {
    const local = localSkillsDir();
    writeSkill(local, 'needs-web', hermes({ requires_toolsets: ['web'] }));
    writeSkill(local, 'needs-browser-tool', hermes({ requires_tools: ['browser_navigate'] }));
    writeSkill(local, 'needs-both', hermes({ requires_toolsets: ['web', 'terminal'] }));
    const library = new SkillsLibrary();
    expect(names(library.buildIndex({ availableToolsets: ['web'], availableTools: [] }))).toEqual([
      'needs-web',
    ]);
    expect(
      names(
        library.buildIndex({
          availableToolsets: ['web', 'terminal'],
          availableTools: ['browser_navigate'],
        }),
      ),
    ).toEqual(['needs-both', 'needs-browser-tool', 'needs-web']);
    // Unknown availability: conditions are not applied.
    expect(names(library.buildIndex())).toHaveLength(3);
  });

  it('shows a fallback skill only while its primary toolset or tool is unavailable', () => {
    const local = localSkillsDir();
    writeSkill(local, 'web-summary', hermes({ requires_toolsets: ['web'] }));
    writeSkill(local, 'curl-summary', hermes({ fallback_for_toolsets: ['web'] }));
    writeSkill(local, 'grep-search', hermes({ fallback_for_tools: ['search_files'] }));
    const library = new SkillsLibrary();
    expect(names(library.buildIndex({ availableToolsets: ['web'], availableTools: [] }))).toEqual([
      'grep-search',
      'web-summary',
    ]);
    expect(
      names(library.buildIndex({ availableToolsets: [], availableTools: ['search_files'] })),
    ).toEqual(['curl-summary']);
  });

  it('buildSkillsIndex works from plain options and the skills_list filter agrees', () => {
    writeSkill(localSkillsDir(), 'one', { category: 'a' });
    writeSkill(localSkillsDir(), 'two', hermes({ requires_toolsets: ['web'] }));
    const index = buildSkillsIndex({ availableToolsets: [] });
    expect(names(index)).toEqual(['one']);
  });
});
