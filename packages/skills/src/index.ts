/**
 * @packageDocumentation
 * @hermes/skills — skills are reusable procedures in `SKILL.md` files (YAML front matter plus
 * Markdown). This package parses and validates them, discovers them across the bundled, user,
 * external and plugin folders, renders the one-line-per-skill system-prompt index (filtered by
 * platform and available tools, cached by mtimes), implements the `skills_list`, `skill_view`
 * and `skill_manage` tools with a content scan, and expands `/<skill>` commands.
 */
export * from './content-scan.js';
export { discoverSkills, type SkillCatalog } from './discovery.js';
export * from './front-matter-schema.js';
export * from './limits.js';
export { type ParsedSkillFile, parseSkillText, readSkillFile } from './parse-skill.js';
export { currentPlatforms, matchesPlatform, normalizePlatform } from './platform.js';
export * from './skill.js';
export * from './skill-command.js';
export * from './skill-errors.js';
export { conditionsMet, filterSkills, type SkillFilter } from './skill-filter.js';
export * from './skill-sources.js';
export { indexLine, renderSkillsIndex, SKILLS_INDEX_HEADER } from './skills-index.js';
export * from './skills-library.js';
export {
  listSupportingFiles,
  type ResolvePathOptions,
  resolveSkillPath,
  type SupportingFiles,
} from './supporting-files.js';
export { skillManage } from './tools/skill-manage.js';
export * from './tools/skill-tools.js';
export { skillView } from './tools/skill-view.js';
export { skillsList } from './tools/skills-list.js';
export * from './tools/tool-result.js';
export * from './tools/tool-schemas.js';
