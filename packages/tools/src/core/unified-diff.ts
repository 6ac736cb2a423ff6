/**
 * Unified diffs for `patch`: applying one the model wrote (several files, new files, tolerant of
 * whitespace drift in context lines) and rendering the change actually made.
 */
import type { FileOperations } from '@hermes/environments';
import { applyPatch, createTwoFilesPatch, parsePatch, type StructuredPatch } from 'diff';
import { CoreToolError } from './errors.js';

/** One file's planned change. */
export interface FileChange {
  readonly path: string;
  readonly before: string;
  readonly after: string;
  readonly created: boolean;
}

/** Renders `before` → `after` as a unified diff with `a/` and `b/` headers. */
export function renderDiff(path: string, before: string, after: string): string {
  return createTwoFilesPatch(`a/${path}`, `b/${path}`, before, after, undefined, undefined, {
    context: 3,
  }).replace(/^=+\n/, '');
}

function stripPrefix(name: string | undefined): string | undefined {
  if (name === undefined || name === '') return undefined;
  const bare = name.split('\t')[0]?.trim() ?? name;
  return bare.startsWith('a/') || bare.startsWith('b/') ? bare.slice(2) : bare;
}

function targetOf(
  patch: StructuredPatch,
  fallback: string | undefined,
): { path: string; created: boolean } {
  const oldName = stripPrefix(patch.oldFileName);
  const newName = stripPrefix(patch.newFileName);
  if (newName === '/dev/null') {
    throw new CoreToolError(
      `The diff deletes ${oldName ?? 'a file'}; patch does not delete files. Use terminal (rm) if that is intended.`,
    );
  }
  const path = newName ?? oldName ?? fallback;
  if (path === undefined) {
    throw new CoreToolError('The diff names no file (no ---/+++ headers); pass path as well.');
  }
  return { path, created: oldName === '/dev/null' };
}

/** Context and removed lines match when equal up to surrounding whitespace. */
const tolerant = (_n: number, line: string | undefined, _op: string, patchLine: string): boolean =>
  line !== undefined && (line === patchLine || line.trim() === patchLine.trim());

function applyOne(source: string, patch: StructuredPatch, path: string): string {
  const strict = applyPatch(source, patch, { compareLine: tolerant });
  if (strict !== false) return strict;
  const fuzzy = applyPatch(source, patch, { compareLine: tolerant, fuzzFactor: 2 });
  if (fuzzy !== false) return fuzzy;
  throw new CoreToolError(
    `The diff does not apply to ${path}: its context or removed lines do not match the file. Re-read the file with read_file and regenerate the diff, or use old_string/new_string.`,
  );
}

/**
 * Plans every file change of `diffText` without writing anything, so a diff that fails on its
 * third file leaves the first two untouched.
 *
 * @param fallbackPath - The file for a diff that has hunks but no file headers.
 * @throws CoreToolError when the diff has no hunks, deletes a file, or does not apply.
 */
export async function planUnifiedDiff(
  diffText: string,
  files: FileOperations,
  fallbackPath?: string,
): Promise<FileChange[]> {
  let patches: StructuredPatch[];
  try {
    patches = parsePatch(diffText);
  } catch (error) {
    throw new CoreToolError(`The diff could not be parsed: ${(error as Error).message}`);
  }
  patches = patches.filter((p) => p.hunks.length > 0);
  if (patches.length === 0)
    throw new CoreToolError('The diff has no hunks (no @@ lines); give a unified diff.');
  const planned = new Map<string, FileChange>();
  for (const patch of patches) {
    const { path, created } = targetOf(patch, fallbackPath);
    const earlier = planned.get(path);
    let before = earlier?.after;
    if (before === undefined) {
      if (created && (await files.stat(path)).exists) {
        throw new CoreToolError(`The diff creates ${path}, but it already exists.`);
      }
      before = created ? '' : await files.readWhole(path);
    }
    const after = applyOne(before, patch, path);
    planned.set(path, {
      path,
      before: earlier?.before ?? before,
      after,
      created: earlier?.created ?? created,
    });
  }
  return [...planned.values()];
}

/**
 * The files a unified diff touches, for the parallel executor; empty when it cannot be parsed
 * (the executor then runs the call alone).
 */
export function diffPaths(diffText: string): string[] {
  try {
    const names = parsePatch(diffText).flatMap((p) => [
      stripPrefix(p.oldFileName),
      stripPrefix(p.newFileName),
    ]);
    return [...new Set(names.filter((n): n is string => n !== undefined && n !== '/dev/null'))];
  } catch {
    return [];
  }
}
