import { describe, expect, it } from 'vitest';
import {
  expandSkillCommand,
  localSkillsDir,
  SKILL_SCAFFOLD_CLOSE,
  SKILL_SCAFFOLD_OPEN_PREFIX,
  SkillsLibrary,
  stripSkillScaffold,
} from '../src/index.js';
import { writeSkill } from './support.js';

function library(): SkillsLibrary {
  writeSkill(localSkillsDir(), 'diff-review', { body: '# Review\n\n1. Read the diff.\n' });
  return new SkillsLibrary();
}

describe('/<skill> expansion', () => {
  it('puts the skill body in a scaffold and the user instruction after it', () => {
    const expansion = expandSkillCommand('/diff-review  check PR 42 please', library().skills());
    expect(expansion?.skill.name).toBe('diff-review');
    expect(expansion?.instruction).toBe('check PR 42 please');
    const message = expansion?.message ?? '';
    expect(message.startsWith(`${SKILL_SCAFFOLD_OPEN_PREFIX}diff-review">`)).toBe(true);
    expect(message).toContain('1. Read the diff.');
    expect(message).toContain(SKILL_SCAFFOLD_CLOSE);
    expect(message.endsWith('\n\ncheck PR 42 please')).toBe(true);
    expect(stripSkillScaffold(message)).toBe('check PR 42 please');
  });

  it('keeps multi-line instructions and leaves nothing after stripping a bare command', () => {
    const skills = new Map(
      library()
        .skills()
        .map((s) => [s.name, s]),
    );
    expect(expandSkillCommand('/diff-review\nline 1\nline 2', skills)?.instruction).toBe(
      'line 1\nline 2',
    );
    const bare = expandSkillCommand('/diff-review', skills);
    expect(bare?.message).toContain('No further instruction');
    expect(stripSkillScaffold(bare?.message ?? 'x')).toBe('');
  });

  it('ignores unknown commands, plain text and paths', () => {
    const skills = library().skills();
    expect(expandSkillCommand('/help', skills)).toBeUndefined();
    expect(expandSkillCommand('please /diff-review', skills)).toBeUndefined();
    expect(expandSkillCommand('/diff-reviewer x', skills)).toBeUndefined();
    expect(expandSkillCommand('/usr/bin/env', skills)).toBeUndefined();
  });
});
