/** The in-memory record of one discovered skill. */
import type { SkillFrontMatter } from './front-matter-schema.js';

/**
 * Where a skill was found. Precedence when two skills share a name, highest first:
 * `local` (HERMES_HOME/skills) › `external` (configured dirs, in order) › `plugin` › `bundled`.
 */
export type SkillSourceKind = 'local' | 'external' | 'plugin' | 'bundled';

/** Precedence rank of each source; lower wins a name collision. */
export const SOURCE_PRECEDENCE: Readonly<Record<SkillSourceKind, number>> = {
  local: 0,
  external: 1,
  plugin: 2,
  bundled: 3,
};

/** When a skill is offered, from `metadata.hermes`. Empty lists mean "no condition". */
export interface SkillConditions {
  readonly requiresToolsets: readonly string[];
  readonly requiresTools: readonly string[];
  readonly fallbackForToolsets: readonly string[];
  readonly fallbackForTools: readonly string[];
}

/** One skill on disk, parsed and validated. */
export interface Skill {
  readonly name: string;
  readonly description: string;
  /** From `metadata.hermes.category`, else the folder the skill sits in, else undefined. */
  readonly category: string | undefined;
  readonly tags: readonly string[];
  /** Empty: every platform. */
  readonly platforms: readonly string[];
  readonly conditions: SkillConditions;
  readonly relatedSkills: readonly string[];
  /** The full validated front matter, unknown keys included. */
  readonly frontMatter: SkillFrontMatter;
  /** The Markdown procedure. */
  readonly body: string;
  /** Absolute path of the skill's folder. */
  readonly dir: string;
  /** Absolute path of its `SKILL.md`. */
  readonly file: string;
  readonly source: SkillSourceKind;
  /** The root folder it was discovered under. */
  readonly root: string;
}

/** A `SKILL.md` that was found but could not be used, or lost a name collision. */
export interface SkillProblem {
  readonly file: string;
  readonly message: string;
}
