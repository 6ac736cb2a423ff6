/**
 * File operations behind `skill_manage`, confined to `HERMES_HOME/skills`: atomic writes (so a
 * reader never sees half a file, and the folder mtime moves for the cache), locating a local
 * skill even when its `SKILL.md` is broken, and copying a read-only skill into the local folder.
 */
import { cpSync, existsSync, lstatSync, readdirSync, rmdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { SKILL_FILE } from '../limits.js';

export { atomicWrite } from '../atomic-write.js';

import type { Skill } from '../skill.js';

/** The folder of local skill `name` (`<local>/<name>` or `<local>/<category>/<name>`), if any. */
export function findLocalSkillDir(localDir: string, name: string): string | undefined {
  const direct = join(localDir, name);
  if (existsSync(join(direct, SKILL_FILE))) return direct;
  let categories: string[] = [];
  try {
    categories = readdirSync(localDir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
      .map((e) => e.name)
      .sort();
  } catch {
    return undefined;
  }
  for (const category of categories) {
    const dir = join(localDir, category, name);
    if (existsSync(join(dir, SKILL_FILE))) return dir;
  }
  return undefined;
}

/**
 * Copies a bundled, external or plugin skill into the local folder (same category and name), so
 * it can be changed; the local copy then wins by precedence. Symbolic links are not copied.
 */
export function copyToLocal(skill: Skill, localDir: string): string {
  const target = skill.category
    ? join(localDir, skill.category, skill.name)
    : join(localDir, skill.name);
  cpSync(skill.dir, target, {
    recursive: true,
    filter: (source) =>
      !lstatSync(source).isSymbolicLink() &&
      !relative(skill.dir, source)
        .split(/[\\/]/)
        .some((part) => part.startsWith('.')),
  });
  return target;
}

/** Removes empty folders from `start` up to, not including, `stop`. */
export function pruneEmptyDirs(start: string, stop: string): void {
  let dir = start;
  while (dir !== stop && relative(stop, dir) !== '' && !relative(stop, dir).startsWith('..')) {
    try {
      if (readdirSync(dir).length > 0) return;
      rmdirSync(dir);
    } catch {
      return;
    }
    dir = dirname(dir);
  }
}
