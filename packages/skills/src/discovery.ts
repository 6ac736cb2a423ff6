/**
 * Discovery: walk each root for `<root>/<name>/SKILL.md` and `<root>/<category>/<name>/SKILL.md`,
 * parse every file, and resolve name collisions by source precedence. Invalid files never stop
 * discovery; they are reported as problems.
 */
import { type Dirent, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isHermesError } from '@hermes/protocol';
import { compareText } from './compare-text.js';
import type { SkillFrontMatter } from './front-matter-schema.js';
import { SKILL_FILE } from './limits.js';
import { type Manifest, signature } from './manifest.js';
import { ParseCache } from './parse-cache.js';
import { type Skill, type SkillProblem, SOURCE_PRECEDENCE } from './skill.js';
import type { SkillRoot } from './skill-sources.js';

/** What a walk over all roots found. */
export interface SkillCatalog {
  /** The winning skill for each name, sorted by name. */
  readonly skills: readonly Skill[];
  /** Unusable files and skills hidden by a same-named one of higher precedence. */
  readonly problems: readonly SkillProblem[];
  /** Fingerprint of what was read, for cache validation. */
  readonly manifest: Manifest;
}

interface Found {
  readonly file: string;
  readonly signature: string;
  readonly pathCategory: string | undefined;
}

function listDirs(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).filter(
      (entry) =>
        entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== 'node_modules',
    );
  } catch {
    return [];
  }
}

/** The signature of `<dir>/SKILL.md`, or undefined when the folder is not a skill. */
function skillFileSignature(dir: string): string | undefined {
  const found = signature(join(dir, SKILL_FILE));
  return found === 'missing' ? undefined : found;
}

/** Finds skill files under one root, recording every folder walked in `manifest`. */
function walkRoot(root: string, manifest: Map<string, string>): Found[] {
  manifest.set(root, signature(root));
  const found: Found[] = [];
  for (const entry of listDirs(root)) {
    const dir = join(root, entry.name);
    const direct = skillFileSignature(dir);
    if (direct) {
      found.push({ file: join(dir, SKILL_FILE), signature: direct, pathCategory: undefined });
      continue;
    }
    manifest.set(dir, signature(dir));
    for (const inner of listDirs(dir)) {
      const skillDir = join(dir, inner.name);
      const nested = skillFileSignature(skillDir);
      if (nested) {
        found.push({
          file: join(skillDir, SKILL_FILE),
          signature: nested,
          pathCategory: entry.name,
        });
      } else {
        // A folder that may become a skill: its mtime moves when a SKILL.md appears in it.
        manifest.set(skillDir, signature(skillDir));
      }
    }
  }
  return found.sort((a, b) => compareText(a.file, b.file));
}

/** Builds the {@link Skill} record from a validated front matter. */
export function toSkill(
  frontMatter: SkillFrontMatter,
  body: string,
  where: { file: string; root: SkillRoot; pathCategory: string | undefined },
): Skill {
  const hermes = frontMatter.metadata?.hermes;
  return {
    name: frontMatter.name,
    description: frontMatter.description,
    category: hermes?.category ?? where.pathCategory,
    tags: hermes?.tags ?? [],
    platforms: (frontMatter.platforms ?? []).map((p) => p.toLowerCase()),
    conditions: {
      requiresToolsets: hermes?.requires_toolsets ?? [],
      requiresTools: hermes?.requires_tools ?? [],
      fallbackForToolsets: hermes?.fallback_for_toolsets ?? [],
      fallbackForTools: hermes?.fallback_for_tools ?? [],
    },
    relatedSkills: frontMatter.related_skills ?? [],
    frontMatter,
    body,
    dir: join(where.file, '..'),
    file: where.file,
    source: where.root.kind,
    root: where.root.dir,
  };
}

function describeLoser(loser: Skill, winner: Skill): SkillProblem {
  return {
    file: loser.file,
    message: `skill "${loser.name}" (${loser.source}) is hidden by the same name in ${winner.file} (${winner.source}); rename one to use both`,
  };
}

/**
 * Walks every root (highest precedence first) and returns the catalog. With `cache`, files whose
 * signature is unchanged since the last walk are not parsed again.
 */
export function discoverSkills(
  roots: readonly SkillRoot[],
  cache: ParseCache = new ParseCache(),
): SkillCatalog {
  const manifest = new Map<string, string>();
  const problems: SkillProblem[] = [];
  const byName = new Map<string, Skill>();
  for (const root of roots) {
    for (const found of walkRoot(root.dir, manifest)) {
      manifest.set(found.file, found.signature);
      try {
        const parsed = cache.parse(found.file, found.signature);
        const skill = toSkill(parsed.frontMatter, parsed.body, { ...found, root });
        const existing = byName.get(skill.name);
        if (!existing) byName.set(skill.name, skill);
        else if (SOURCE_PRECEDENCE[skill.source] < SOURCE_PRECEDENCE[existing.source]) {
          byName.set(skill.name, skill);
          problems.push(describeLoser(existing, skill));
        } else problems.push(describeLoser(skill, existing));
      } catch (error) {
        const message = isHermesError(error) ? error.message : String(error);
        problems.push({ file: found.file, message });
      }
    }
  }
  cache.prune(manifest);
  const skills = [...byName.values()].sort((a, b) => compareText(a.name, b.name));
  return { skills, problems, manifest };
}
