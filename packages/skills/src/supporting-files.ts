/**
 * Supporting files: the `references/`, `templates/`, `scripts/` and `assets/` folders beside a
 * `SKILL.md`. Listing them, and turning a model-supplied relative path into an absolute one that
 * provably stays inside the skill (no absolute paths, no `..`, no symlink escapes).
 */
import { existsSync, lstatSync, readdirSync, realpathSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { compareText } from './compare-text.js';
import { SUPPORTING_DIRS, type SupportingDir } from './limits.js';
import { SkillPathError } from './skill-errors.js';

/** Relative paths (with `/`) of the files in each supporting folder. */
export type SupportingFiles = Record<SupportingDir, string[]>;

const MAX_LISTED_FILES = 500;

function walkFiles(dir: string, prefix: string, out: string[]): void {
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries.sort((a, b) => compareText(a.name, b.name))) {
    if (out.length >= MAX_LISTED_FILES || entry.name.startsWith('.')) continue;
    const rel = `${prefix}/${entry.name}`;
    // Symlinks are never followed: a link could point anywhere on the machine.
    if (entry.isDirectory()) walkFiles(join(dir, entry.name), rel, out);
    else if (entry.isFile()) out.push(rel);
  }
}

/** Lists the supporting files of the skill in `skillDir`, by folder. */
export function listSupportingFiles(skillDir: string): SupportingFiles {
  const result = {} as SupportingFiles;
  for (const folder of SUPPORTING_DIRS) {
    const files: string[] = [];
    walkFiles(join(skillDir, folder), folder, files);
    result[folder] = files;
  }
  return result;
}

/** True when `child` is `parent` or inside it. */
function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && !/^[A-Za-z]:/.test(rel));
}

/** The real path of `path`'s nearest existing ancestor (itself when it exists). */
function realAncestor(path: string): string {
  let current = path;
  while (!existsSync(current)) {
    const parent = dirname(current);
    if (parent === current) return current;
    current = parent;
  }
  return realpathSync(current);
}

/** Options of {@link resolveSkillPath}. */
export interface ResolvePathOptions {
  /** Require the first segment to be one of the supporting folders (writes). */
  readonly supportingOnly?: boolean;
}

function checkSegments(filePath: string, options: ResolvePathOptions): string[] {
  if (filePath.trim() === '' || filePath.includes('\0')) {
    throw new SkillPathError(
      'file_path is empty or contains a NUL byte: give a path like references/notes.md',
    );
  }
  const normalized = filePath.replace(/\\/g, '/');
  if (normalized.startsWith('/') || /^[A-Za-z]:/.test(normalized)) {
    throw new SkillPathError(
      `file_path "${filePath}" is absolute: give a path relative to the skill folder`,
    );
  }
  const segments = normalized.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.some((s) => s.startsWith('.') && s !== '..')) {
    throw new SkillPathError(
      `file_path "${filePath}" names a hidden file or folder; those are not served`,
    );
  }
  if (segments.includes('..')) {
    throw new SkillPathError(
      `file_path "${filePath}" contains "..": paths must stay inside the skill folder`,
    );
  }
  const top = segments[0] ?? '';
  if (
    options.supportingOnly &&
    (segments.length < 2 || !SUPPORTING_DIRS.includes(top as SupportingDir))
  ) {
    throw new SkillPathError(
      `file_path "${filePath}" must be a file under one of ${SUPPORTING_DIRS.map((d) => `${d}/`).join(', ')}`,
    );
  }
  return segments;
}

/**
 * Resolves `filePath` (relative, `/`-separated) inside `skillDir`.
 * @throws {SkillPathError} when the path is absolute, climbs out, or escapes through a symlink.
 */
export function resolveSkillPath(
  skillDir: string,
  filePath: string,
  options: ResolvePathOptions = {},
): string {
  const segments = checkSegments(filePath, options);
  const base = resolve(skillDir);
  const target = resolve(base, ...segments);
  if (!isInside(base, target)) {
    throw new SkillPathError(`file_path "${filePath}" resolves outside the skill folder`);
  }
  const realBase = existsSync(base) ? realpathSync(base) : base;
  if (!isInside(realBase, realAncestor(target))) {
    throw new SkillPathError(
      `file_path "${filePath}" leads outside the skill folder through a link`,
    );
  }
  if (existsSync(target) && lstatSync(target).isSymbolicLink()) {
    throw new SkillPathError(`file_path "${filePath}" is a symbolic link; links are not followed`);
  }
  return target;
}
