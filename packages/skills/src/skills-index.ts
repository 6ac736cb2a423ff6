/**
 * Progressive disclosure, step one: the system prompt carries one line per skill (name, category,
 * description); the model loads the full procedure with `skill_view` only when it needs it.
 */

import { compareText } from './compare-text.js';
import { INDEX_DESCRIPTION_CHARS } from './limits.js';
import type { Skill } from './skill.js';

/** Opening of the index block in the system prompt. */
export const SKILLS_INDEX_HEADER = [
  '## Skills',
  'Skills are saved procedures. Before starting a task, scan this list; when a skill matches the',
  'task, load it with skill_view(name) and follow it. Load its supporting files with',
  'skill_view(name, file_path). If none matches, proceed without one.',
].join('\n');

/** Collapses whitespace and cuts long descriptions so every skill stays on one line. */
export function oneLine(text: string, max: number = INDEX_DESCRIPTION_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

/** The index line of one skill: `- name [category]: description`. */
export function indexLine(skill: Skill): string {
  const category = skill.category ? ` [${skill.category}]` : '';
  return `- ${skill.name}${category}: ${oneLine(skill.description)}`;
}

/** Renders the index block, grouped by category then name; empty string when there are none. */
export function renderSkillsIndex(skills: readonly Skill[]): string {
  if (skills.length === 0) return '';
  const sorted = [...skills].sort(
    (a, b) => compareText(a.category ?? '', b.category ?? '') || compareText(a.name, b.name),
  );
  const lines = sorted.map(indexLine);
  return `${SKILLS_INDEX_HEADER}\n<available_skills>\n${lines.join('\n')}\n</available_skills>`;
}
