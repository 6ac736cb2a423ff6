import { describe, expect, it } from 'vitest';
import {
  MAX_SKILL_CONTENT_CHARS,
  parseSkillText,
  readSkillFile,
  SKILL_INVALID_CODE,
  SkillParseError,
} from '../src/index.js';
import { skillText } from './support.js';

const FILE = 'skills/demo/SKILL.md';

function problemsOf(text: string): readonly string[] {
  try {
    parseSkillText(text, FILE);
  } catch (error) {
    expect(error).toBeInstanceOf(SkillParseError);
    const parseError = error as SkillParseError;
    expect(parseError.code).toBe(SKILL_INVALID_CODE);
    expect(parseError.message).toContain(FILE);
    return parseError.problems;
  }
  throw new Error('expected the skill to be rejected');
}

describe('parseSkillText', () => {
  it('parses every documented front-matter key', () => {
    const text = skillText({
      name: 'deploy-to-staging',
      description: 'Deploy the current branch to staging and check health.',
      version: 1.2,
      author: 'platform-team',
      license: 'MIT',
      platforms: ['slack', 'cli'],
      metadata: {
        hermes: {
          tags: ['deploy', 'ci'],
          category: 'devops',
          requires_toolsets: ['terminal'],
          requires_tools: ['terminal'],
          fallback_for_toolsets: ['deploy'],
          fallback_for_tools: ['deploy_app'],
        },
        other: { kept: true },
      },
      related_skills: ['rollback-deploy'],
      required_environment_variables: ['GITHUB_TOKEN', { name: 'STAGING_URL', optional: true }],
      'allowed-tools': ['Bash'],
    });
    const { frontMatter, body } = parseSkillText(text, FILE);
    expect(frontMatter.name).toBe('deploy-to-staging');
    expect(frontMatter.version).toBe('1.2');
    expect(frontMatter.platforms).toEqual(['slack', 'cli']);
    expect(frontMatter.metadata?.hermes?.category).toBe('devops');
    expect(frontMatter.metadata?.hermes?.fallback_for_tools).toEqual(['deploy_app']);
    expect(frontMatter.required_environment_variables).toEqual([
      { name: 'GITHUB_TOKEN' },
      { name: 'STAGING_URL', optional: true },
    ]);
    expect((frontMatter as Record<string, unknown>)['allowed-tools']).toEqual(['Bash']);
    expect(body).toBe('# Steps\n\n1. Do it.');
  });

  it('accepts CRLF line endings, a BOM, and a lone string where a list is expected', () => {
    const text =
      '\uFEFF---\r\nname: a.b_c-1\r\ndescription: d\r\nplatforms: linux\r\n---\r\nBody\r\n';
    const { frontMatter, body } = parseSkillText(text, FILE);
    expect(frontMatter.name).toBe('a.b_c-1');
    expect(frontMatter.platforms).toEqual(['linux']);
    expect(body).toBe('Body');
  });

  it('reads from disk and names an unreadable file', () => {
    expect(() => readSkillFile('/nonexistent/SKILL.md')).toThrow(
      /\/nonexistent\/SKILL\.md[\s\S]*ENOENT/,
    );
  });
});

describe('validation errors name the file, the key and the fix', () => {
  const cases: Array<[string, string, RegExp]> = [
    [
      'no front matter',
      '# Just markdown\n',
      /missing front matter: start the file with a line "---"/,
    ],
    ['unclosed front matter', '---\nname: x\ndescription: y\n', /missing front matter/],
    [
      'broken YAML',
      '---\nname: [unclosed\ndescription: y\n---\nbody\n',
      /not valid YAML \(line \d+\)/,
    ],
    ['missing name', skillText({ description: 'd' }), /"name" is required: add `name: my-skill`/],
    ['name not a string', skillText({ name: 42, description: 'd' }), /"name" must be a string/],
    [
      'name too long',
      skillText({ name: 'a'.repeat(65), description: 'd' }),
      /"name" must be at most 64 characters/,
    ],
    [
      'name with capitals',
      skillText({ name: 'Git-Flow', description: 'd' }),
      /"name" must start with a lower-case letter or digit/,
    ],
    [
      'name starting with a dash',
      skillText({ name: '-x', description: 'd' }),
      /"name" must start with/,
    ],
    ['missing description', skillText({ name: 'x' }), /"description" is required/],
    [
      'empty description',
      skillText({ name: 'x', description: '   ' }),
      /"description" must not be empty/,
    ],
    [
      'description too long',
      skillText({ name: 'x', description: 'd'.repeat(1025) }),
      /"description" must be at most 1024 characters/,
    ],
    [
      'bad version',
      skillText({ name: 'x', description: 'd', version: true }),
      /"version" must be a version string/,
    ],
    [
      'bad author',
      skillText({ name: 'x', description: 'd', author: ['a'] }),
      /"author" must be a string/,
    ],
    [
      'bad license',
      skillText({ name: 'x', description: 'd', license: 3 }),
      /"license" must be a string/,
    ],
    [
      'bad platforms',
      skillText({ name: 'x', description: 'd', platforms: { os: 'linux' } }),
      /"platforms" must be a list/,
    ],
    [
      'bad tags',
      skillText({ name: 'x', description: 'd', metadata: { hermes: { tags: [1] } } }),
      /"metadata\.hermes\.tags\.\[0\]" each entry of tags must be a string/,
    ],
    [
      'bad category',
      skillText({ name: 'x', description: 'd', metadata: { hermes: { category: 'Dev Ops' } } }),
      /"metadata\.hermes\.category" must be a folder-style name/,
    ],
    [
      'bad requires_toolsets',
      skillText({ name: 'x', description: 'd', metadata: { hermes: { requires_toolsets: 5 } } }),
      /"metadata\.hermes\.requires_toolsets" must be a list of toolset names/,
    ],
    [
      'bad requires_tools',
      skillText({ name: 'x', description: 'd', metadata: { hermes: { requires_tools: [''] } } }),
      /"metadata\.hermes\.requires_tools\.\[0\]" tool names must not contain empty entries/,
    ],
    [
      'bad fallback_for_toolsets',
      skillText({
        name: 'x',
        description: 'd',
        metadata: { hermes: { fallback_for_toolsets: {} } },
      }),
      /"metadata\.hermes\.fallback_for_toolsets" must be a list/,
    ],
    [
      'bad fallback_for_tools',
      skillText({
        name: 'x',
        description: 'd',
        metadata: { hermes: { fallback_for_tools: [null] } },
      }),
      /"metadata\.hermes\.fallback_for_tools\.\[0\]"/,
    ],
    [
      'metadata not a mapping',
      skillText({ name: 'x', description: 'd', metadata: 'hermes' }),
      /"metadata" must be a mapping/,
    ],
    [
      'bad related_skills',
      skillText({ name: 'x', description: 'd', related_skills: [{}] }),
      /"related_skills\.\[0\]" each entry of skill names must be a string/,
    ],
    [
      'bad env var name',
      skillText({ name: 'x', description: 'd', required_environment_variables: ['NOT-VALID'] }),
      /"required_environment_variables\.\[0\]\.name" must be an environment variable name/,
    ],
    [
      'env vars not a list',
      skillText({ name: 'x', description: 'd', required_environment_variables: 'TOKEN' }),
      /"required_environment_variables" must be a list of variable names/,
    ],
    [
      'front matter not a mapping',
      '---\n- a\n- b\n---\nbody\n',
      /"front matter" the front matter must be a YAML mapping/,
    ],
    [
      'empty body',
      skillText({ name: 'x', description: 'd' }, '\n\n'),
      /body is empty: write the procedure/,
    ],
  ];
  it.each(cases)('%s', (_label, text, expected) => {
    const problems = problemsOf(text);
    expect(problems.join('\n')).toMatch(expected);
  });

  it('reports every problem of a file at once', () => {
    const problems = problemsOf(skillText({ name: 'Bad Name', description: '', version: [] }, ''));
    expect(problems, problems.join('\n')).toHaveLength(4);
  });

  it('rejects a file over the size limit with the numbers', () => {
    const text = skillText({ name: 'x', description: 'd' }, 'x'.repeat(MAX_SKILL_CONTENT_CHARS));
    expect(problemsOf(text).join()).toMatch(
      /characters; the limit is 100000: move detail into references/,
    );
  });
});
