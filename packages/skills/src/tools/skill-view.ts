/**
 * The `skill_view` tool: a skill's whole `SKILL.md` with its metadata and supporting-file list,
 * or one supporting file. Reports which required environment variables are missing (names only:
 * values never leave the process).
 */
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { isHermesError } from '@hermes/protocol';
import { MAX_SUPPORTING_FILE_BYTES } from '../limits.js';
import type { Skill } from '../skill.js';
import type { SkillsLibrary } from '../skills-library.js';
import { listSupportingFiles, resolveSkillPath } from '../supporting-files.js';
import { fail, ok, parseArgs, type SkillToolResult } from './tool-result.js';
import { SkillViewArgsSchema } from './tool-schemas.js';

/** A skill that was asked for and not found: say so, and list what exists. */
export function skillNotFound(library: SkillsLibrary, name: string): SkillToolResult {
  const names = library.skills().map((s) => s.name);
  return fail(`Skill "${name}" not found.`, {
    available_skills: names.slice(0, 30),
    hint: 'Use skills_list to see every skill.',
  });
}

function looksBinary(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(8192);
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, read).includes(0);
  } finally {
    closeSync(fd);
  }
}

function viewFile(skill: Skill, filePath: string): SkillToolResult {
  let target: string;
  try {
    target = resolveSkillPath(skill.dir, filePath);
  } catch (error) {
    return fail(isHermesError(error) ? error.message : String(error));
  }
  let size: number;
  try {
    const stat = statSync(target);
    if (!stat.isFile()) throw new Error('not a file');
    size = stat.size;
  } catch {
    return fail(`File "${filePath}" not found in skill "${skill.name}".`, {
      supporting_files: listSupportingFiles(skill.dir),
    });
  }
  if (size > MAX_SUPPORTING_FILE_BYTES) {
    return fail(
      `File "${filePath}" is ${size} bytes; files over ${MAX_SUPPORTING_FILE_BYTES} are not loaded.`,
    );
  }
  if (looksBinary(target)) {
    return ok({ name: skill.name, file: filePath, binary: true, size, path: target });
  }
  return ok({ name: skill.name, file: filePath, content: readFileSync(target, 'utf8') });
}

function missingEnv(skill: Skill, env: NodeJS.ProcessEnv): string[] {
  const wanted = skill.frontMatter.required_environment_variables ?? [];
  return wanted.filter((v) => !v.optional && !env[v.name]).map((v) => v.name);
}

function viewSkill(skill: Skill, env: NodeJS.ProcessEnv): SkillToolResult {
  const missing = missingEnv(skill, env);
  return ok({
    name: skill.name,
    description: skill.description,
    category: skill.category ?? null,
    tags: skill.tags,
    related_skills: skill.relatedSkills,
    source: skill.source,
    path: skill.file,
    content: readFileSync(skill.file, 'utf8'),
    supporting_files: listSupportingFiles(skill.dir),
    required_environment_variables: (skill.frontMatter.required_environment_variables ?? []).map(
      (v) => v.name,
    ),
    missing_environment_variables: missing,
    ...(missing.length > 0 && {
      setup_needed: `Ask the user to set ${missing.join(', ')} (for example in HERMES_HOME/.env) before following this skill.`,
    }),
  });
}

/** Runs `skill_view`. `env` is read only to tell which variables are missing. */
export function skillView(
  library: SkillsLibrary,
  rawArgs: unknown,
  env: NodeJS.ProcessEnv = process.env,
): SkillToolResult {
  const parsed = parseArgs(SkillViewArgsSchema, rawArgs, 'skill_view');
  if ('failure' in parsed) return parsed.failure;
  const skill = library.get(parsed.args.name);
  if (!skill) return skillNotFound(library, parsed.args.name);
  return parsed.args.file_path === undefined
    ? viewSkill(skill, env)
    : viewFile(skill, parsed.args.file_path);
}
