/** The errors this package throws; callers branch on `code`. */
import { HermesError } from '@hermes/protocol';

/** Code of {@link SkillParseError}. */
export const SKILL_INVALID_CODE = 'skills.invalid_skill';

/** Code of {@link SkillPathError}. */
export const SKILL_PATH_CODE = 'skills.unsafe_path';

/**
 * A `SKILL.md` that cannot be used. The message names the file, each offending front-matter key
 * and what to change; `problems` holds the same facts one per entry.
 */
export class SkillParseError extends HermesError {
  /** The file that failed. */
  readonly file: string;
  /** One line per problem: `key: what is wrong — how to fix it`. */
  readonly problems: readonly string[];

  constructor(file: string, problems: readonly string[]) {
    const list = problems.map((p) => `  - ${p}`).join('\n');
    super(SKILL_INVALID_CODE, `Invalid skill file ${file}:\n${list}`, {
      details: { file, problems },
    });
    this.file = file;
    this.problems = problems;
  }
}

/** A supporting-file path that is absolute, climbs out of the skill, or is outside the allowed folders. */
export class SkillPathError extends HermesError {
  constructor(message: string) {
    super(SKILL_PATH_CODE, message);
  }
}
