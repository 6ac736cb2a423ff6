import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createSkillTools,
  localSkillsDir,
  SkillsLibrary,
  skillsList,
  skillView,
} from '../src/index.js';
import { writeSkill } from './support.js';

describe('skill_view', () => {
  it('lists missing required environment variables by name only', () => {
    writeSkill(localSkillsDir(), 'gh-tasks', {
      frontMatter: {
        required_environment_variables: [
          'GH_TOKEN',
          { name: 'GH_HOST', optional: true },
          'PRESENT_VAR',
        ],
      },
    });
    const data = skillView(
      new SkillsLibrary(),
      { name: 'gh-tasks' },
      { PRESENT_VAR: 'super-secret-value' },
    ).data;
    expect(data.required_environment_variables).toEqual(['GH_TOKEN', 'GH_HOST', 'PRESENT_VAR']);
    expect(data.missing_environment_variables).toEqual(['GH_TOKEN']);
    expect(data.setup_needed).toMatch(/Ask the user to set GH_TOKEN/);
    expect(JSON.stringify(data)).not.toContain('super-secret-value');
  });

  it('reports binary files by size and missing files with the file list', () => {
    const dir = writeSkill(localSkillsDir(), 'pics');
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'assets', 'logo.png'), Buffer.from([0x89, 0x50, 0x00, 0x01]));
    const library = new SkillsLibrary();
    expect(skillView(library, { name: 'pics', file_path: 'assets/logo.png' }).data).toMatchObject({
      success: true,
      binary: true,
      size: 4,
    });
    const missing = skillView(library, { name: 'pics', file_path: 'assets/none.png' }).data;
    expect(missing).toMatchObject({
      success: false,
      supporting_files: { assets: ['assets/logo.png'] },
    });
  });

  it('says which skills exist when the name is unknown, and rejects bad arguments', () => {
    writeSkill(localSkillsDir(), 'real');
    const library = new SkillsLibrary();
    expect(skillView(library, { name: 'fake' }).data).toMatchObject({
      success: false,
      available_skills: ['real'],
    });
    expect(skillView(library, { name: 3 }).data.error).toMatch(
      /Invalid skill_view arguments: name/,
    );
  });
});

describe('skills_list', () => {
  it('lists skills with categories, filters by category and by the index filter', () => {
    writeSkill(localSkillsDir(), 'a', { category: 'devops' });
    writeSkill(localSkillsDir(), 'b', {
      category: 'research',
      frontMatter: { metadata: { hermes: { requires_toolsets: ['web'] } } },
    });
    writeSkill(localSkillsDir(), 'c');
    const library = new SkillsLibrary();
    const all = skillsList(library, {}).data;
    expect(all).toMatchObject({ count: 3, categories: ['devops', 'research', 'uncategorized'] });
    expect(skillsList(library, { category: 'devops' }).data.skills).toEqual([
      { name: 'a', category: 'devops', description: 'Use a when needed.', source: 'local' },
    ]);
    expect(skillsList(library, { category: 'nope' }).data.hint).toMatch(
      /No skills in category "nope"/,
    );
    expect(skillsList(library, {}, { availableToolsets: [] }).data.count).toBe(2);
  });
});

describe('createSkillTools', () => {
  it('exposes three tools with JSON schemas and working handlers', () => {
    writeSkill(localSkillsDir(), 'x');
    const tools = createSkillTools(new SkillsLibrary());
    expect(tools.map((t) => [t.name, t.toolset])).toEqual([
      ['skills_list', 'skills'],
      ['skill_view', 'skills'],
      ['skill_manage', 'skills'],
    ]);
    const manage = tools[2];
    expect(manage?.jsonSchema).toMatchObject({
      type: 'object',
      required: ['action', 'name'],
      properties: {
        action: { enum: ['create', 'patch', 'edit', 'delete', 'write_file', 'remove_file'] },
      },
    });
    expect(manage?.jsonSchema).not.toHaveProperty('$schema');
    const view = tools[1]?.handler({ name: 'x' });
    expect(JSON.parse(view?.text ?? '{}')).toMatchObject({ success: true, name: 'x' });
  });
});
