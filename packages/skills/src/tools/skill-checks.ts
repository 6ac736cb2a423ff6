/** Validation shared by the `skill_manage` actions: names, SKILL.md content, sizes, the scan. */
import { isHermesError } from '@hermes/protocol';
import { describeFindings, scanSkillContent } from '../content-scan.js';
import {
  MAX_SKILL_CONTENT_CHARS,
  MAX_SKILL_NAME_LENGTH,
  MAX_SUPPORTING_FILE_BYTES,
  SKILL_NAME_PATTERN,
} from '../limits.js';
import { parseSkillText } from '../parse-skill.js';

/** Why `value` is not a valid skill or category name, or undefined when it is. */
export function nameProblem(value: string, what: 'name' | 'category'): string | undefined {
  if (value.length > MAX_SKILL_NAME_LENGTH) {
    return `${what} "${value.slice(0, 80)}" is ${value.length} characters; the limit is ${MAX_SKILL_NAME_LENGTH}.`;
  }
  if (!SKILL_NAME_PATTERN.test(value)) {
    return `${what} "${value}" is invalid: use lower-case letters, digits, ".", "_" and "-", starting with a letter or digit (e.g. "git-workflow").`;
  }
  return undefined;
}

/** Why `text` may not be written, according to the content scan, or undefined. */
export function scanProblem(text: string, where: string): string | undefined {
  const scan = scanSkillContent(text);
  if (scan.ok) return undefined;
  return `Refused: the content scan blocked ${where}: ${describeFindings(scan.findings)}. Remove that text and try again.`;
}

/** Why `content` is not an acceptable SKILL.md for skill `name`, or undefined. */
export function skillContentProblem(content: string, name: string): string | undefined {
  if (content.length > MAX_SKILL_CONTENT_CHARS) {
    return `SKILL.md is ${content.length} characters; the limit is ${MAX_SKILL_CONTENT_CHARS}. Move detail into references/ files.`;
  }
  try {
    const parsed = parseSkillText(content, `SKILL.md of "${name}"`);
    if (parsed.frontMatter.name !== name) {
      return `The front matter says name "${parsed.frontMatter.name}" but the skill is "${name}": make them equal.`;
    }
  } catch (error) {
    return isHermesError(error) ? error.message : String(error);
  }
  return scanProblem(content, 'SKILL.md');
}

/** Why a supporting file's `content` may not be written, or undefined. */
export function supportingContentProblem(content: string, filePath: string): string | undefined {
  const bytes = Buffer.byteLength(content, 'utf8');
  if (bytes > MAX_SUPPORTING_FILE_BYTES) {
    return `${filePath} is ${bytes} bytes; supporting files are limited to ${MAX_SUPPORTING_FILE_BYTES}.`;
  }
  return scanProblem(content, filePath);
}

/** Counts non-overlapping occurrences of `needle` in `haystack`. */
export function countOccurrences(haystack: string, needle: string): number {
  let count = 0;
  for (
    let at = haystack.indexOf(needle);
    at >= 0;
    at = haystack.indexOf(needle, at + needle.length)
  ) {
    count++;
  }
  return count;
}
