/** The `skills_list` tool: every offered skill, one entry each, optionally by category. */
import type { SkillFilter } from '../skill-filter.js';
import type { SkillsLibrary } from '../skills-library.js';
import { ok, parseArgs, type SkillToolResult } from './tool-result.js';
import { SkillsListArgsSchema } from './tool-schemas.js';

/** Runs `skills_list`. `filter` restricts the list to what the index would offer. */
export function skillsList(
  library: SkillsLibrary,
  rawArgs: unknown,
  filter?: SkillFilter,
): SkillToolResult {
  const parsed = parseArgs(SkillsListArgsSchema, rawArgs, 'skills_list');
  if ('failure' in parsed) return parsed.failure;
  const all = filter ? library.available(filter) : [...library.skills()];
  const categories = [...new Set(all.map((s) => s.category ?? 'uncategorized'))].sort();
  const wanted = parsed.args.category;
  const chosen = wanted ? all.filter((s) => (s.category ?? 'uncategorized') === wanted) : all;
  return ok({
    count: chosen.length,
    skills: chosen.map((s) => ({
      name: s.name,
      category: s.category ?? 'uncategorized',
      description: s.description,
      source: s.source,
    })),
    categories,
    hint:
      chosen.length === 0 && wanted
        ? `No skills in category "${wanted}"; categories are: ${categories.join(', ') || '(none)'}`
        : 'Use skill_view(name) to load a skill.',
  });
}
