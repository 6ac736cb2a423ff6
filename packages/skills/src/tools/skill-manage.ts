/**
 * The `skill_manage` tool: the agent's write path into its own skills. Every action validates
 * first and writes second, only under `HERMES_HOME/skills`. Changing a bundled, external or
 * plugin skill copies it into the local folder first (the copy then wins by precedence);
 * deleting one, or removing its files, is refused because those folders are not ours.
 */
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { isHermesError } from '@hermes/protocol';
import { SKILL_FILE } from '../limits.js';
import type { SkillsLibrary } from '../skills-library.js';
import { resolveSkillPath } from '../supporting-files.js';
import {
  countOccurrences,
  nameProblem,
  skillContentProblem,
  supportingContentProblem,
} from './skill-checks.js';
import { atomicWrite, copyToLocal, findLocalSkillDir, pruneEmptyDirs } from './skill-store.js';
import { skillNotFound } from './skill-view.js';
import { fail, ok, parseArgs, type SkillToolResult } from './tool-result.js';
import { type SkillManageArgs, SkillManageArgsSchema } from './tool-schemas.js';

/** Where a skill to change lives; `materialize` returns a writable folder (copying if needed). */
interface Located {
  readonly dir: string;
  readonly local: boolean;
  readonly materialize: () => string;
}

function locate(library: SkillsLibrary, name: string): Located | undefined {
  const localDir = findLocalSkillDir(library.localDir, name);
  if (localDir) return { dir: localDir, local: true, materialize: () => localDir };
  const skill = library.get(name);
  if (!skill) return undefined;
  return { dir: skill.dir, local: false, materialize: () => copyToLocal(skill, library.localDir) };
}

function required(args: SkillManageArgs, key: keyof SkillManageArgs): string | undefined {
  return args[key] === undefined ? `action "${args.action}" needs "${key}".` : undefined;
}

function create(library: SkillsLibrary, args: SkillManageArgs): SkillToolResult {
  const missing = required(args, 'content');
  if (missing || args.content === undefined) return fail(missing ?? '');
  const categoryProblem = args.category ? nameProblem(args.category, 'category') : undefined;
  if (categoryProblem) return fail(categoryProblem);
  const existing = locate(library, args.name);
  if (existing) {
    return fail(
      `A skill named "${args.name}" already exists (${existing.dir}). Use edit or patch to change it, or choose another name.`,
    );
  }
  const problem = skillContentProblem(args.content, args.name);
  if (problem) return fail(problem);
  const dir = args.category
    ? join(library.localDir, args.category, args.name)
    : join(library.localDir, args.name);
  atomicWrite(join(dir, SKILL_FILE), args.content);
  return ok({ message: `Created skill "${args.name}".`, path: join(dir, SKILL_FILE) });
}

function edit(args: SkillManageArgs, where: Located): SkillToolResult {
  if (args.content === undefined) return fail(required(args, 'content') ?? '');
  const problem = skillContentProblem(args.content, args.name);
  if (problem) return fail(problem);
  const dir = where.materialize();
  atomicWrite(join(dir, SKILL_FILE), args.content);
  return ok({
    message: `Replaced SKILL.md of "${args.name}"${copyNote(where)}.`,
    path: join(dir, SKILL_FILE),
  });
}

function copyNote(where: Located): string {
  return where.local ? '' : ' (a local copy now overrides the read-only original)';
}

function patch(args: SkillManageArgs, where: Located): SkillToolResult {
  const missing = required(args, 'old_string') ?? required(args, 'new_string');
  if (missing || args.old_string === undefined || args.new_string === undefined)
    return fail(missing ?? '');
  if (args.old_string === '') return fail('old_string must not be empty.');
  const rel = args.file_path ?? SKILL_FILE;
  const file = args.file_path
    ? resolveSkillPath(where.dir, rel, { supportingOnly: true })
    : join(where.dir, SKILL_FILE);
  if (!existsSync(file)) return fail(`File "${rel}" does not exist in skill "${args.name}".`);
  const before = readFileSync(file, 'utf8');
  const count = countOccurrences(before, args.old_string);
  if (count === 0)
    return fail(`old_string was not found in ${rel}. View the skill and copy the exact text.`);
  if (count > 1 && !args.replace_all) {
    return fail(
      `old_string matches ${count} places in ${rel}: add surrounding text to make it unique, or set replace_all.`,
    );
  }
  const after = before.split(args.old_string).join(args.new_string);
  const problem = args.file_path
    ? supportingContentProblem(after, rel)
    : skillContentProblem(after, args.name);
  if (problem) return fail(problem);
  const dir = where.materialize();
  const target = args.file_path
    ? resolveSkillPath(dir, rel, { supportingOnly: true })
    : join(dir, SKILL_FILE);
  atomicWrite(target, after);
  return ok({
    message: `Patched ${rel} of "${args.name}" (${count} replacement${count > 1 ? 's' : ''})${copyNote(where)}.`,
    path: target,
  });
}

function writeFile(args: SkillManageArgs, where: Located): SkillToolResult {
  const missing = required(args, 'file_path') ?? required(args, 'file_content');
  if (missing || args.file_path === undefined || args.file_content === undefined)
    return fail(missing ?? '');
  resolveSkillPath(where.dir, args.file_path, { supportingOnly: true });
  const problem = supportingContentProblem(args.file_content, args.file_path);
  if (problem) return fail(problem);
  const dir = where.materialize();
  const target = resolveSkillPath(dir, args.file_path, { supportingOnly: true });
  atomicWrite(target, args.file_content);
  return ok({
    message: `Wrote ${args.file_path} in "${args.name}"${copyNote(where)}.`,
    path: target,
  });
}

function readOnly(where: Located, name: string, what: string): SkillToolResult {
  return fail(
    `Skill "${name}" is read-only here (${where.dir}); only skills under HERMES_HOME/skills can ${what}.`,
  );
}

function removeFile(args: SkillManageArgs, where: Located): SkillToolResult {
  if (args.file_path === undefined) return fail(required(args, 'file_path') ?? '');
  if (!where.local) return readOnly(where, args.name, 'lose files');
  const target = resolveSkillPath(where.dir, args.file_path, { supportingOnly: true });
  if (!existsSync(target) || !statSync(target).isFile()) {
    return fail(`File "${args.file_path}" does not exist in skill "${args.name}".`);
  }
  rmSync(target);
  pruneEmptyDirs(dirname(target), where.dir);
  return ok({ message: `Removed ${args.file_path} from "${args.name}".` });
}

function remove(args: SkillManageArgs, where: Located, library: SkillsLibrary): SkillToolResult {
  if (!where.local) return readOnly(where, args.name, 'be deleted');
  rmSync(where.dir, { recursive: true, force: true });
  pruneEmptyDirs(dirname(where.dir), library.localDir);
  return ok({
    message: `Deleted skill "${args.name}".`,
    path: relative(library.localDir, where.dir),
  });
}

const ACTIONS = {
  edit,
  patch,
  write_file: writeFile,
  remove_file: removeFile,
  delete: remove,
} as const;

/** Runs `skill_manage`; never throws for bad input, returning `{ success: false, error }`. */
export function skillManage(library: SkillsLibrary, rawArgs: unknown): SkillToolResult {
  const parsed = parseArgs(SkillManageArgsSchema, rawArgs, 'skill_manage');
  if ('failure' in parsed) return parsed.failure;
  const args = parsed.args;
  const bad = nameProblem(args.name, 'name');
  if (bad) return fail(bad);
  try {
    if (args.action === 'create') return create(library, args);
    const where = locate(library, args.name);
    if (!where) return skillNotFound(library, args.name);
    return ACTIONS[args.action](args, where, library);
  } catch (error) {
    return fail(
      isHermesError(error) ? error.message : `skill_manage ${args.action} failed: ${String(error)}`,
    );
  } finally {
    // Only local files change here; bundled and external parses stay cached.
    library.invalidate(library.localDir);
  }
}
