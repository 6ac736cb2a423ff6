/**
 * Reading a `SKILL.md`: split the YAML front matter from the Markdown body, parse the YAML and
 * validate it. Every failure becomes one {@link SkillParseError} listing all problems at once,
 * so an author fixes a file in one pass.
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import type { z } from 'zod';
import { type SkillFrontMatter, SkillFrontMatterSchema } from './front-matter-schema.js';
import { MAX_SKILL_CONTENT_CHARS } from './limits.js';
import { SkillParseError } from './skill-errors.js';

/** A parsed, validated `SKILL.md`. */
export interface ParsedSkillFile {
  readonly frontMatter: SkillFrontMatter;
  /** The Markdown after the front matter, trimmed. */
  readonly body: string;
}

const FENCE = /^---[ \t]*$/;

/** Splits `---\n yaml \n---\n body`; returns undefined when the file has no front matter. */
function splitFrontMatter(text: string): { yaml: string; body: string } | undefined {
  const lines = text.split('\n');
  if (!FENCE.test(lines[0] ?? '')) return undefined;
  const end = lines.findIndex((line, index) => index > 0 && FENCE.test(line));
  if (end < 0) return undefined;
  return { yaml: lines.slice(1, end).join('\n'), body: lines.slice(end + 1).join('\n') };
}

function formatKey(path: readonly PropertyKey[]): string {
  if (path.length === 0) return 'front matter';
  return path.map((key) => (typeof key === 'number' ? `[${key}]` : String(key))).join('.');
}

function zodProblems(error: z.ZodError): string[] {
  // A value can fail the same rule twice (type, then length); say it once.
  return [...new Set(error.issues.map((issue) => `"${formatKey(issue.path)}" ${issue.message}`))];
}

function parseYamlBlock(yaml: string): { value?: unknown; problem?: string } {
  try {
    return { value: parseYaml(yaml) };
  } catch (error) {
    if (error instanceof YAMLParseError) {
      // +1: the front matter starts on the file's second line.
      const line = (error.linePos?.[0]?.line ?? 0) + 1;
      const first = error.message.split('\n')[0] ?? error.message;
      return { problem: `front matter is not valid YAML (line ${line}): ${first}` };
    }
    return { problem: `front matter could not be read: ${String(error)}` };
  }
}

/**
 * Parses the text of a `SKILL.md`. `file` is only used in error messages.
 * @throws {SkillParseError} listing every problem found.
 */
export function parseSkillText(text: string, file: string): ParsedSkillFile {
  const normalized = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  if (normalized.length > MAX_SKILL_CONTENT_CHARS) {
    throw new SkillParseError(file, [
      `file is ${normalized.length} characters; the limit is ${MAX_SKILL_CONTENT_CHARS}: move detail into references/ files`,
    ]);
  }
  const split = splitFrontMatter(normalized);
  if (!split) {
    throw new SkillParseError(file, [
      'missing front matter: start the file with a line "---", the YAML keys (name, description), then a closing "---"',
    ]);
  }
  const yaml = parseYamlBlock(split.yaml);
  if (yaml.problem) throw new SkillParseError(file, [yaml.problem]);
  const problems: string[] = [];
  const result = SkillFrontMatterSchema.safeParse(yaml.value ?? {});
  if (!result.success) problems.push(...zodProblems(result.error));
  const body = split.body.trim();
  if (body.length === 0) {
    problems.push('body is empty: write the procedure in Markdown after the closing "---"');
  }
  if (!result.success || problems.length > 0) throw new SkillParseError(file, problems);
  return { frontMatter: result.data, body };
}

/**
 * Reads and parses a `SKILL.md` from disk.
 * @throws {SkillParseError} when the file is unreadable or invalid.
 */
export function readSkillFile(file: string): ParsedSkillFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new SkillParseError(file, [
      `cannot read the file (${reason}): check it exists and is readable`,
    ]);
  }
  return parseSkillText(text, file);
}
