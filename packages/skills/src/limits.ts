/** The numbers that bound a skill: name and description lengths, file sizes, folder names. */

/** The file that makes a folder a skill. */
export const SKILL_FILE = 'SKILL.md';

/** Longest allowed skill name (also the longest category name). */
export const MAX_SKILL_NAME_LENGTH = 64;

/** Longest allowed `description`; it is what the model reads in the index. */
export const MAX_SKILL_DESCRIPTION_LENGTH = 1_024;

/** Longest `SKILL.md` accepted, in characters; a skill is loaded whole into the context. */
export const MAX_SKILL_CONTENT_CHARS = 100_000;

/** Largest supporting file `skill_manage write_file` accepts, in bytes. */
export const MAX_SUPPORTING_FILE_BYTES = 1_048_576;

/** Skill and category names: lower-case letters, digits, `.`, `_` and `-`, starting alphanumeric. */
export const SKILL_NAME_PATTERN = /^[a-z0-9][a-z0-9._-]*$/;

/** The only folders inside a skill that may hold supporting files. */
export const SUPPORTING_DIRS = ['references', 'templates', 'scripts', 'assets'] as const;

/** One of {@link SUPPORTING_DIRS}. */
export type SupportingDir = (typeof SUPPORTING_DIRS)[number];

/** Longest description shown on a skill's line in the system-prompt index. */
export const INDEX_DESCRIPTION_CHARS = 200;
