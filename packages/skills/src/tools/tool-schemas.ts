/**
 * Argument schemas of the three skill tools, as zod (for validation) and JSON Schema (for the
 * model). `skill_manage` is one flat object with an `action` enum, the shape every provider's
 * function calling accepts; per-action required fields are checked by the handler.
 */
import type { JsonSchema } from '@hermes/protocol';
import { z } from 'zod';

/** Toolset the skill tools belong to. */
export const SKILLS_TOOLSET = 'skills';

/** Arguments of `skills_list`. */
export const SkillsListArgsSchema = z.strictObject({
  category: z.string().optional().describe('Only list skills in this category.'),
});
/** See {@link SkillsListArgsSchema}. */
export type SkillsListArgs = z.output<typeof SkillsListArgsSchema>;

/** Arguments of `skill_view`. */
export const SkillViewArgsSchema = z.strictObject({
  name: z.string().min(1).describe('The skill name, as shown in the skills index.'),
  file_path: z
    .string()
    .optional()
    .describe(
      'A supporting file inside the skill, such as references/checklist.md. Omit for SKILL.md.',
    ),
});
/** See {@link SkillViewArgsSchema}. */
export type SkillViewArgs = z.output<typeof SkillViewArgsSchema>;

/** The `skill_manage` actions. */
export const SKILL_MANAGE_ACTIONS = [
  'create',
  'patch',
  'edit',
  'delete',
  'write_file',
  'remove_file',
] as const;

/** Arguments of `skill_manage`. */
export const SkillManageArgsSchema = z.strictObject({
  action: z
    .enum(SKILL_MANAGE_ACTIONS)
    .describe(
      'create: new skill from full SKILL.md content. edit: replace SKILL.md. patch: replace old_string with new_string in SKILL.md or file_path. delete: remove the skill. write_file / remove_file: a supporting file.',
    ),
  name: z
    .string()
    .min(1)
    .describe('Skill name: lower-case letters, digits, ".", "_", "-"; at most 64.'),
  content: z
    .string()
    .optional()
    .describe(
      'create, edit: the whole SKILL.md, YAML front matter (name, description) then the procedure.',
    ),
  category: z.string().optional().describe('create: folder to file the skill under, e.g. devops.'),
  old_string: z.string().optional().describe('patch: exact text to replace.'),
  new_string: z.string().optional().describe('patch: replacement text (may be empty).'),
  replace_all: z
    .boolean()
    .optional()
    .describe('patch: replace every occurrence, not just a unique one.'),
  file_path: z
    .string()
    .optional()
    .describe(
      'write_file, remove_file, patch: path under references/, templates/, scripts/ or assets/.',
    ),
  file_content: z.string().optional().describe('write_file: the file content.'),
});
/** See {@link SkillManageArgsSchema}. */
export type SkillManageArgs = z.output<typeof SkillManageArgsSchema>;

/** JSON Schema for a model, without the `$schema` key some providers reject. */
export function toToolJsonSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'input' }) as Record<
    string,
    unknown
  >;
  return rest;
}

/** Descriptions the model reads. */
export const SKILL_TOOL_DESCRIPTIONS = {
  skills_list:
    'List the available skills (name, category, description). Use skill_view to read one.',
  skill_view:
    'Load a skill: its full SKILL.md procedure and the list of its supporting files, or one supporting file with file_path.',
  skill_manage:
    'Create, edit, patch or delete your own skills in HERMES_HOME/skills, and write or remove their supporting files. Save a skill after solving a task that took real effort and is likely to recur; fix a skill as soon as you find it wrong. Content is checked for validity and for prompt-injection or exfiltration text.',
} as const;
