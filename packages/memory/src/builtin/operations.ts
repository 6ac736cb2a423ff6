/** The pure edit logic of the memory tool: operations applied to a list of entries. */
import type { MemoryWriteEvent } from '../memory-types.js';

/** Which file an operation edits: `memory` is MEMORY.md, `user` is USER.md. */
export type MemoryTarget = 'memory' | 'user';

/** One edit. `oldText` is a short substring that identifies exactly one entry. */
export type MemoryOperation =
  | { readonly action: 'add'; readonly content: string }
  | { readonly action: 'replace'; readonly oldText: string; readonly content: string }
  | { readonly action: 'remove'; readonly oldText: string };

/** Why an operation could not be applied. */
export type MemoryOperationFailure =
  | { readonly kind: 'no_match'; readonly oldText: string }
  | { readonly kind: 'ambiguous'; readonly oldText: string; readonly matches: readonly string[] };

/** The outcome of {@link applyMemoryOperations}. */
export type MemoryOperationsOutcome =
  | {
      readonly ok: true;
      readonly entries: readonly string[];
      /** One event per effective change, in order, for mirroring to an external provider. */
      readonly changes: readonly MemoryWriteEvent[];
      /** Adds skipped because the entry already existed. */
      readonly duplicates: number;
    }
  | { readonly ok: false; readonly failure: MemoryOperationFailure; readonly index: number };

type Located = { index: number } | MemoryOperationFailure;

/** Finds the one entry containing `oldText`; several identical entries count as one. */
function locate(entries: readonly string[], oldText: string): Located {
  const needle = oldText.trim();
  const hits = entries.flatMap((entry, index) => (entry.includes(needle) ? [index] : []));
  const first = hits[0];
  if (first === undefined) return { kind: 'no_match', oldText };
  const distinct = new Set(hits.map((index) => entries[index]));
  if (distinct.size > 1) return { kind: 'ambiguous', oldText, matches: [...distinct] as string[] };
  return { index: first };
}

/**
 * Applies `operations` in order to a copy of `entries`. All or nothing: the first failing
 * operation fails the whole batch and nothing is returned but the failure. Size limits are not
 * checked here; the caller checks the final state.
 */
export function applyMemoryOperations(
  entries: readonly string[],
  operations: readonly MemoryOperation[],
  target: MemoryTarget,
): MemoryOperationsOutcome {
  const working = [...entries];
  const changes: MemoryWriteEvent[] = [];
  let duplicates = 0;
  for (const [index, operation] of operations.entries()) {
    if (operation.action === 'add') {
      const content = operation.content.trim();
      if (working.includes(content)) duplicates += 1;
      else {
        working.push(content);
        changes.push({ action: 'add', target, content });
      }
      continue;
    }
    const found = locate(working, operation.oldText);
    if (!('index' in found)) return { ok: false, failure: found, index };
    const previous = working[found.index] as string;
    if (operation.action === 'remove') {
      working.splice(found.index, 1);
      changes.push({ action: 'remove', target, content: previous });
    } else {
      const content = operation.content.trim();
      working[found.index] = content;
      changes.push({ action: 'replace', target, content, previousContent: previous });
    }
  }
  return { ok: true, entries: [...new Set(working)], changes, duplicates };
}
