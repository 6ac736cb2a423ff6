/** What a write to the built-in store reports, and the wording the model reads. */
import type { MemoryWriteEvent } from '../memory-types.js';
import { formatMemoryUsage, groupDigits } from './entries.js';
import type { MemoryOperationFailure, MemoryTarget } from './operations.js';

/** Why a write was refused. Nothing was written in any of these cases. */
export type MemoryWriteFailureReason =
  | 'invalid'
  | 'blocked'
  | 'no_match'
  | 'ambiguous'
  | 'overflow'
  | 'drift'
  | 'unreadable'
  | 'lock_timeout';

/** How full one store is. */
export interface MemoryUsage {
  readonly used: number;
  readonly limit: number;
}

/** The outcome of `BuiltinMemoryStore.write`; `entries` are always the live ones on disk. */
export type MemoryWriteResult =
  | {
      readonly ok: true;
      readonly target: MemoryTarget;
      readonly message: string;
      readonly entries: readonly string[];
      readonly usage: MemoryUsage;
      /** The effective changes (empty when every add was a duplicate). */
      readonly changes: readonly MemoryWriteEvent[];
    }
  | {
      readonly ok: false;
      readonly target: MemoryTarget;
      readonly reason: MemoryWriteFailureReason;
      readonly message: string;
      /** Absent when the file could not be read. */
      readonly entries?: readonly string[];
      readonly usage?: MemoryUsage;
    };

/** `Memory` for MEMORY.md, `User profile` for USER.md: how messages name a store. */
export function storeLabel(target: MemoryTarget): string {
  return target === 'memory' ? 'Memory' : 'User profile';
}

const quote = (text: string) => JSON.stringify(text.length > 80 ? `${text.slice(0, 77)}...` : text);

/** The message for an `old_text` that matched no entry or several. */
export function operationFailureMessage(failure: MemoryOperationFailure): string {
  if (failure.kind === 'no_match') {
    return `No entry matched ${quote(failure.oldText)}. Nothing was changed. Pick a short substring of one of the current entries listed below and retry.`;
  }
  const previews = failure.matches.map((entry) => `  - ${quote(entry)}`).join('\n');
  return `Multiple entries (${failure.matches.length}) matched ${quote(failure.oldText)}; nothing was changed. Use a longer substring that occurs in only one entry:\n${previews}`;
}

/** The message for a write that would not fit: usage, and the order to consolidate now. */
export function overflowMessage(
  target: MemoryTarget,
  current: number,
  next: number,
  limit: number,
): string {
  const store = storeLabel(target);
  const tooBig = `${store} at ${formatMemoryUsage(current, limit)}; this change would bring it to ${groupDigits(next)} chars and exceed the ${groupDigits(limit)}-char limit by ${groupDigits(next - limit)}. Nothing was written; the current entries are listed below.`;
  return `${tooBig} Consolidate now: use 'replace' to merge overlapping entries into shorter ones or 'remove' stale or less important entries, then retry this add — all in this turn.`;
}

/** The message for a file that another process changed since this session last read it. */
export function driftMessage(target: MemoryTarget, file: string): string {
  return `${file} was changed by another process since you last saw it, so this ${storeLabel(target).toLowerCase()} edit was aborted (nothing was written). The current entries are listed below; check that your edit still applies, then retry.`;
}

/** The success message of a write. */
export function successMessage(changes: readonly MemoryWriteEvent[], duplicates: number): string {
  const parts: string[] = [];
  const count = (action: MemoryWriteEvent['action']) =>
    changes.filter((change) => change.action === action).length;
  const added = count('add');
  const replaced = count('replace');
  const removed = count('remove');
  if (added) parts.push(added === 1 ? 'Entry added.' : `${added} entries added.`);
  if (replaced) parts.push(replaced === 1 ? 'Entry replaced.' : `${replaced} entries replaced.`);
  if (removed) parts.push(removed === 1 ? 'Entry removed.' : `${removed} entries removed.`);
  if (duplicates) {
    parts.push(
      duplicates === 1
        ? 'Entry already exists (no duplicate added).'
        : `${duplicates} entries already existed (no duplicates added).`,
    );
  }
  return parts.join(' ') || 'Nothing to change.';
}
