/**
 * The skills library: discovery across every root, cached by the folders' and files' mtimes, and
 * the filtered system-prompt index on top. One instance per agent (or per process) is enough;
 * every read re-validates the cache with one `stat` per folder and skill file.
 */
import { join } from 'node:path';
import { discoverSkills, type SkillCatalog } from './discovery.js';
import { manifestIsCurrent } from './manifest.js';
import { ParseCache } from './parse-cache.js';
import type { Skill } from './skill.js';
import { filterSkills, type SkillFilter } from './skill-filter.js';
import {
  localSkillsDir,
  resolveHermesHome,
  type SkillRoot,
  type SkillSourcesOptions,
  skillRoots,
} from './skill-sources.js';
import { renderSkillsIndex } from './skills-index.js';

/** Options of {@link SkillsLibrary}: where to look, and where to keep the parse snapshot. */
export interface SkillsLibraryOptions extends SkillSourcesOptions {
  /**
   * JSON snapshot of parsed skills shared across processes, validated by mtimes on load.
   * Default `HERMES_HOME/cache/skills-snapshot.json`; `false` to keep the cache in memory only.
   */
  readonly snapshotFile?: string | false;
}

function filterKey(filter: SkillFilter): string {
  const sorted = (values: Iterable<string> | undefined) =>
    values === undefined ? null : [...values].sort();
  const platform = typeof filter.platform === 'string' ? [filter.platform] : filter.platform;
  return JSON.stringify([
    sorted(platform),
    filter.os ?? process.platform,
    sorted(filter.availableTools),
    sorted(filter.availableToolsets),
  ]);
}

/** Every skill Hermes can see, from every root, with caching. */
export class SkillsLibrary {
  /** Roots searched, highest precedence first. */
  readonly roots: readonly SkillRoot[];
  /** `HERMES_HOME/skills`: the only folder `skill_manage` writes to. */
  readonly localDir: string;
  #catalog: SkillCatalog | undefined;
  #indexes = new Map<string, string>();
  #parsed = new ParseCache();
  readonly #snapshotFile: string | undefined;
  #snapshotLoaded = false;

  constructor(options: SkillsLibraryOptions = {}) {
    this.roots = skillRoots(options);
    this.localDir = localSkillsDir(options.hermesHome);
    this.#snapshotFile =
      options.snapshotFile === false
        ? undefined
        : (options.snapshotFile ??
          join(resolveHermesHome(options.hermesHome), 'cache', 'skills-snapshot.json'));
  }

  /**
   * The current catalog. While no folder or skill file changed this costs one `stat` each;
   * otherwise the roots are re-walked and only changed files are parsed again.
   */
  catalog(): SkillCatalog {
    if (this.#catalog && manifestIsCurrent(this.#catalog.manifest)) return this.#catalog;
    if (this.#snapshotFile && !this.#snapshotLoaded) {
      this.#parsed.load(this.#snapshotFile);
      this.#snapshotLoaded = true;
    }
    this.#catalog = discoverSkills(this.roots, this.#parsed);
    this.#indexes.clear();
    if (this.#snapshotFile && this.#parsed.dirty) this.#parsed.save(this.#snapshotFile);
    return this.#catalog;
  }

  /** Every usable skill, by name. */
  skills(): readonly Skill[] {
    return this.catalog().skills;
  }

  /** The skill called `name`, after precedence, or undefined. */
  get(name: string): Skill | undefined {
    return this.skills().find((skill) => skill.name === name);
  }

  /** Skills offered under `filter` (platform and tool conditions). */
  available(filter: SkillFilter = {}): Skill[] {
    return filterSkills(this.skills(), filter);
  }

  /** The system-prompt index block for `filter`; cached until a skill folder changes. */
  buildIndex(filter: SkillFilter = {}): string {
    const catalog = this.catalog();
    const key = filterKey(filter);
    const cached = this.#indexes.get(key);
    if (cached !== undefined) return cached;
    const text = renderSkillsIndex(filterSkills(catalog.skills, filter));
    this.#indexes.set(key, text);
    return text;
  }

  /**
   * Drops the cached catalog, and the parsed files under `dir` when given: for writers that may
   * change a file twice within one mtime tick.
   */
  invalidate(dir?: string): void {
    this.#catalog = undefined;
    this.#indexes.clear();
    if (dir) this.#parsed.forget(dir);
  }
}

const MAX_SHARED_LIBRARIES = 16;
const shared = new Map<string, SkillsLibrary>();

/** One process-wide library per set of roots, so repeated index builds hit the cache. */
export function sharedSkillsLibrary(options: SkillSourcesOptions = {}): SkillsLibrary {
  const key = JSON.stringify(skillRoots(options));
  let library = shared.get(key);
  if (!library) {
    if (shared.size >= MAX_SHARED_LIBRARIES) shared.clear();
    library = new SkillsLibrary(options);
    shared.set(key, library);
  }
  return library;
}

/**
 * The system-prompt skills index: one line per skill offered on this platform with these tools,
 * from every root in `options`. Cached by folder and file mtimes.
 */
export function buildSkillsIndex(options: SkillSourcesOptions & SkillFilter = {}): string {
  return sharedSkillsLibrary(options).buildIndex(options);
}
