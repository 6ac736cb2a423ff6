/**
 * The three skill tools packaged for a tool registry: name, toolset, description, zod parameters,
 * JSON Schema and handler. The record is shaped like `@hermes/tools`' `ToolSpec` without importing
 * it, so the registry (or the agent loop) can register these as they are.
 */
import type { JsonSchema } from '@hermes/protocol';
import type { z } from 'zod';
import type { SkillFilter } from '../skill-filter.js';
import type { SkillsLibrary } from '../skills-library.js';
import { skillManage } from './skill-manage.js';
import { skillView } from './skill-view.js';
import { skillsList } from './skills-list.js';
import type { SkillToolResult } from './tool-result.js';
import {
  SKILL_TOOL_DESCRIPTIONS,
  SKILLS_TOOLSET,
  SkillManageArgsSchema,
  SkillsListArgsSchema,
  SkillViewArgsSchema,
  toToolJsonSchema,
} from './tool-schemas.js';

/** One skill tool. */
export interface SkillToolDefinition {
  readonly name: 'skills_list' | 'skill_view' | 'skill_manage';
  readonly toolset: typeof SKILLS_TOOLSET;
  readonly description: string;
  /** Zod argument schema; the handler validates again, so raw model arguments are safe too. */
  readonly parameters: z.ZodType;
  /** The same arguments as JSON Schema, for providers. */
  readonly jsonSchema: JsonSchema;
  /** Skill tools only read and write small files: safe to run beside other tools. */
  readonly parallelSafe: boolean;
  readonly handler: (args: unknown) => SkillToolResult;
}

/** Options of {@link createSkillTools}. */
export interface SkillToolsOptions {
  /** Restricts `skills_list` to the skills the index offers. */
  readonly filter?: SkillFilter;
  /** Where `skill_view` looks for required variables; default `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
}

/** Builds `skills_list`, `skill_view` and `skill_manage` over `library`. */
export function createSkillTools(
  library: SkillsLibrary,
  options: SkillToolsOptions = {},
): readonly SkillToolDefinition[] {
  const base = { toolset: SKILLS_TOOLSET } as const;
  return [
    {
      ...base,
      name: 'skills_list',
      description: SKILL_TOOL_DESCRIPTIONS.skills_list,
      parameters: SkillsListArgsSchema,
      jsonSchema: toToolJsonSchema(SkillsListArgsSchema),
      parallelSafe: true,
      handler: (args) => skillsList(library, args, options.filter),
    },
    {
      ...base,
      name: 'skill_view',
      description: SKILL_TOOL_DESCRIPTIONS.skill_view,
      parameters: SkillViewArgsSchema,
      jsonSchema: toToolJsonSchema(SkillViewArgsSchema),
      parallelSafe: true,
      handler: (args) => skillView(library, args, options.env),
    },
    {
      ...base,
      name: 'skill_manage',
      description: SKILL_TOOL_DESCRIPTIONS.skill_manage,
      parameters: SkillManageArgsSchema,
      jsonSchema: toToolJsonSchema(SkillManageArgsSchema),
      // Writes: keep them ordered with respect to each other and to skill_view.
      parallelSafe: false,
      handler: (args) => skillManage(library, args),
    },
  ];
}
