/**
 * The YAML front matter of a `SKILL.md`, as a zod schema. Unknown keys are kept (other skill
 * ecosystems add their own), but every key Hermes reads is checked, with messages that say how
 * to fix the value.
 */
import { z } from 'zod';
import {
  MAX_SKILL_DESCRIPTION_LENGTH,
  MAX_SKILL_NAME_LENGTH,
  SKILL_NAME_PATTERN,
} from './limits.js';

const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A list of strings; a lone string is accepted as a list of one (a common hand-written slip). */
function stringList(what: string) {
  return z.preprocess(
    (value) => (typeof value === 'string' ? [value] : value),
    z.array(
      z
        .string({ error: `each entry of ${what} must be a string` })
        .trim()
        .min(1, {
          error: `${what} must not contain empty entries`,
        }),
      { error: `must be a list of ${what}, for example [a, b]` },
    ),
  );
}

/** YAML reads `version: 1.0` as a number; keep it as the text the author wrote. */
const versionSchema = z.preprocess(
  (value) => (typeof value === 'number' ? String(value) : value),
  z.string({ error: 'must be a version string such as "1.0.0"' }).min(1),
);

const nameSchema = z
  .string({
    error: (issue) =>
      issue.input === undefined
        ? 'is required: add `name: my-skill` to the front matter'
        : 'must be a string such as "my-skill"',
  })
  .max(MAX_SKILL_NAME_LENGTH, {
    error: `must be at most ${MAX_SKILL_NAME_LENGTH} characters: shorten it`,
  })
  .regex(SKILL_NAME_PATTERN, {
    error:
      'must start with a lower-case letter or digit and use only a-z, 0-9, ".", "_" and "-" (for example "git-workflow")',
  });

const descriptionSchema = z
  .string({
    error: (issue) =>
      issue.input === undefined
        ? 'is required: add a one-sentence `description:` saying when to use the skill'
        : 'must be a string',
  })
  .trim()
  .min(1, { error: 'must not be empty: say in one sentence when to use the skill' })
  .max(MAX_SKILL_DESCRIPTION_LENGTH, {
    error: `must be at most ${MAX_SKILL_DESCRIPTION_LENGTH} characters: move detail into the body`,
  });

/** One environment variable a skill needs; a bare string is shorthand for `{ name }`. */
export const RequiredEnvVarSchema = z.preprocess(
  (value) => (typeof value === 'string' ? { name: value } : value),
  z.object(
    {
      name: z.string({ error: 'needs a `name`' }).regex(ENV_NAME_PATTERN, {
        error: 'must be an environment variable name such as GITHUB_TOKEN',
      }),
      prompt: z.string().optional(),
      help: z.string().optional(),
      optional: z.boolean().optional(),
    },
    { error: 'each entry must be a variable name or { name, prompt?, help?, optional? }' },
  ),
);
/** See {@link RequiredEnvVarSchema}. */
export type RequiredEnvVar = z.output<typeof RequiredEnvVarSchema>;

/** `metadata.hermes`: how Hermes files the skill and when it offers it. */
export const HermesSkillMetadataSchema = z.looseObject({
  tags: stringList('tags').optional(),
  category: z
    .string({ error: 'must be a string' })
    .regex(SKILL_NAME_PATTERN, {
      error: 'must be a folder-style name such as "software-development"',
    })
    .max(MAX_SKILL_NAME_LENGTH)
    .optional(),
  requires_toolsets: stringList('toolset names').optional(),
  requires_tools: stringList('tool names').optional(),
  fallback_for_toolsets: stringList('toolset names').optional(),
  fallback_for_tools: stringList('tool names').optional(),
});
/** See {@link HermesSkillMetadataSchema}. */
export type HermesSkillMetadata = z.output<typeof HermesSkillMetadataSchema>;

/** The whole front matter. */
export const SkillFrontMatterSchema = z.looseObject(
  {
    name: nameSchema,
    description: descriptionSchema,
    version: versionSchema.optional(),
    author: z.string({ error: 'must be a string' }).optional(),
    license: z.string({ error: 'must be a string such as "MIT"' }).optional(),
    platforms: stringList('platform names (macos, linux, windows, cli, telegram, …)').optional(),
    metadata: z
      .looseObject({ hermes: HermesSkillMetadataSchema.optional() }, { error: 'must be a mapping' })
      .optional(),
    related_skills: stringList('skill names').optional(),
    required_environment_variables: z
      .array(RequiredEnvVarSchema, { error: 'must be a list of variable names' })
      .optional(),
  },
  { error: 'the front matter must be a YAML mapping of keys to values' },
);
/** A validated front matter. */
export type SkillFrontMatter = z.output<typeof SkillFrontMatterSchema>;
