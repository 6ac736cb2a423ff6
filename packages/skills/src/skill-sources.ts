/** Where skills live: resolving HERMES_HOME, the bundled folder, and the ordered list of roots. */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SkillSourceKind } from './skill.js';

/** Which folders to search. Every field is optional. */
export interface SkillSourcesOptions {
  /** Data home; default `$HERMES_HOME`, else `~/.hermes`. User skills live in `<home>/skills`. */
  readonly hermesHome?: string;
  /** The repository's bundled `skills/` folder (the CLI passes it; see {@link findBundledSkillsDir}). */
  readonly bundledDir?: string;
  /** Extra folders from config (`skills.external_dirs`), highest precedence first. Read-only. */
  readonly externalDirs?: readonly string[];
  /** Folders contributed by plugins. Read-only. */
  readonly pluginDirs?: readonly string[];
}

/** One folder searched for skills. */
export interface SkillRoot {
  readonly kind: SkillSourceKind;
  readonly dir: string;
}

/** The data home: the option, else `$HERMES_HOME`, else `~/.hermes`. */
export function resolveHermesHome(hermesHome?: string): string {
  const fromEnv = process.env.HERMES_HOME;
  if (hermesHome) return resolve(hermesHome);
  if (fromEnv) return resolve(fromEnv);
  return join(homedir(), '.hermes');
}

/** The folder that `skill_manage` writes to: `<home>/skills`. */
export function localSkillsDir(hermesHome?: string): string {
  return join(resolveHermesHome(hermesHome), 'skills');
}

/**
 * The roots to search, highest precedence first: local, external, plugin, bundled. A folder
 * listed twice is searched once, at its highest position.
 */
export function skillRoots(options: SkillSourcesOptions): SkillRoot[] {
  const roots: SkillRoot[] = [{ kind: 'local', dir: localSkillsDir(options.hermesHome) }];
  for (const dir of options.externalDirs ?? []) roots.push({ kind: 'external', dir: resolve(dir) });
  for (const dir of options.pluginDirs ?? []) roots.push({ kind: 'plugin', dir: resolve(dir) });
  if (options.bundledDir) roots.push({ kind: 'bundled', dir: resolve(options.bundledDir) });
  const seen = new Set<string>();
  return roots.filter((root) => !seen.has(root.dir) && seen.add(root.dir));
}

/**
 * Finds the repository's bundled `skills/` folder by walking up from `from` (default: this
 * module's folder) to the first folder holding both `skills/` and `pnpm-workspace.yaml`.
 * Returns undefined when there is none (for example in an installed package).
 */
export function findBundledSkillsDir(from?: string): string | undefined {
  let dir = resolve(from ?? dirname(fileURLToPath(import.meta.url)));
  for (;;) {
    const candidate = join(dir, 'skills');
    if (existsSync(join(dir, 'pnpm-workspace.yaml')) && existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
