/**
 * Parsed `SKILL.md` files keyed by path and signature (mtime + size), so a re-walk parses only
 * what changed. The cache can be saved as a JSON snapshot and loaded by the next process: a new
 * CLI run then pays one `stat` per file instead of one YAML parse per file.
 */
import { readFileSync } from 'node:fs';
import { sep } from 'node:path';
import { z } from 'zod';
import { atomicWrite } from './atomic-write.js';
import { SkillFrontMatterSchema } from './front-matter-schema.js';
import { type ParsedSkillFile, readSkillFile } from './parse-skill.js';
import { SkillParseError } from './skill-errors.js';

/** Bumped whenever the snapshot layout or the front-matter schema changes meaning. */
const SNAPSHOT_VERSION = 1;

const SnapshotSchema = z.object({
  version: z.literal(SNAPSHOT_VERSION),
  files: z.record(
    z.string(),
    z.object({
      signature: z.string(),
      frontMatter: SkillFrontMatterSchema.optional(),
      body: z.string().optional(),
      problems: z.array(z.string()).optional(),
    }),
  ),
});

type Entry = { readonly signature: string; readonly result: ParsedSkillFile | SkillParseError };

/** See the file comment. */
export class ParseCache {
  #entries = new Map<string, Entry>();
  #dirty = false;

  /** True when something was parsed (or dropped) since the last save or load. */
  get dirty(): boolean {
    return this.#dirty;
  }

  /**
   * The parsed file, from the cache when `signature` matches, else read and parsed now.
   * @throws {SkillParseError} for an invalid file (cached too, so it is not re-read).
   */
  parse(file: string, signature: string): ParsedSkillFile {
    const hit = this.#entries.get(file);
    let result = hit?.signature === signature ? hit.result : undefined;
    if (!result) {
      try {
        result = readSkillFile(file);
      } catch (error) {
        if (!(error instanceof SkillParseError)) throw error;
        result = error;
      }
      this.#entries.set(file, { signature, result });
      this.#dirty = true;
    }
    if (result instanceof SkillParseError) throw result;
    return result;
  }

  /** Forgets files that were not seen in the last walk. */
  prune(seen: ReadonlyMap<string, string>): void {
    for (const file of this.#entries.keys()) {
      if (!seen.has(file)) {
        this.#entries.delete(file);
        this.#dirty = true;
      }
    }
  }

  /** Forgets every file under `dir` (a skill that was just written). */
  forget(dir: string): void {
    const prefix = dir.endsWith(sep) ? dir : `${dir}${sep}`;
    for (const file of this.#entries.keys()) {
      if (file.startsWith(prefix)) this.#entries.delete(file);
    }
  }

  /** Loads a snapshot written by {@link save}; a missing, stale or corrupt one is ignored. */
  load(file: string): void {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      return;
    }
    const parsed = SnapshotSchema.safeParse(raw);
    if (!parsed.success) return;
    for (const [path, entry] of Object.entries(parsed.data.files)) {
      const result =
        entry.frontMatter && entry.body !== undefined
          ? { frontMatter: entry.frontMatter, body: entry.body }
          : new SkillParseError(path, entry.problems ?? ['unknown problem']);
      this.#entries.set(path, { signature: entry.signature, result });
    }
    this.#dirty = false;
  }

  /** Writes the snapshot atomically; failures are ignored (the cache is only an optimization). */
  save(file: string): void {
    const files: Record<string, unknown> = {};
    for (const [path, { signature, result }] of this.#entries) {
      files[path] =
        result instanceof SkillParseError
          ? { signature, problems: result.problems }
          : { signature, frontMatter: result.frontMatter, body: result.body };
    }
    try {
      atomicWrite(file, JSON.stringify({ version: SNAPSHOT_VERSION, files }));
      this.#dirty = false;
    } catch {
      // A read-only home still works, just without the cross-process snapshot.
    }
  }
}
