/**
 * The frozen snapshot of MEMORY.md and USER.md taken when the agent starts, rendered into the
 * system prompt. It never changes mid-session (the prompt prefix stays byte-identical, so the
 * provider's prompt cache keeps hitting); writes reach disk at once and show in tool results.
 */
import { formatMemoryUsage, MEMORY_ENTRY_SEPARATOR } from './entries.js';
import type { MemoryTarget } from './operations.js';
import { describeMemoryThreat, scanMemoryContent } from './threat-scan.js';
import type { MemoryUsage } from './write-result.js';

/** One file's part of the snapshot. */
export interface MemorySnapshotSection {
  readonly target: MemoryTarget;
  /** `MEMORY.md` or `USER.md`. */
  readonly file: string;
  /** Entries as the prompt shows them: unsafe ones replaced by a `[BLOCKED: …]` placeholder. */
  readonly entries: readonly string[];
  /** Usage of the file on disk (blocked entries included). */
  readonly usage: MemoryUsage;
  /** How many entries were replaced by a placeholder. */
  readonly blocked: number;
  /** Set when the file could not be read: why. The prompt says so instead of showing entries. */
  readonly unreadable?: string;
}

/** Both files, as loaded once at agent start. */
export interface MemorySnapshot {
  readonly memory: MemorySnapshotSection;
  readonly user: MemorySnapshotSection;
  /** Epoch milliseconds of the load. */
  readonly loadedAt: number;
  /** The rendered system-prompt text ('' when both files are empty). */
  readonly text: string;
}

const HEADINGS: Record<MemoryTarget, string> = {
  memory: 'MEMORY (your personal notes)',
  user: 'USER PROFILE (who the user is)',
};

const RULE = '═'.repeat(46);

/** Replaces every entry that fails the threat scan with a placeholder naming the threat. */
export function sanitizeEntriesForSnapshot(
  entries: readonly string[],
  file: string,
): { entries: string[]; blocked: number } {
  let blocked = 0;
  const safe = entries.map((entry) => {
    const threat = scanMemoryContent(entry);
    if (!threat) return entry;
    blocked += 1;
    return `[BLOCKED: ${file} entry contained threat pattern: ${describeMemoryThreat(threat)}]`;
  });
  return { entries: safe, blocked };
}

/** Renders one section, or '' for an empty, readable file. */
export function renderSnapshotSection(section: MemorySnapshotSection): string {
  const { used, limit } = section.usage;
  const percent = limit > 0 ? Math.round((used / limit) * 100) : 0;
  const heading = `${HEADINGS[section.target]} [${percent}% — ${formatMemoryUsage(used, limit)}]`;
  let body: string;
  if (section.unreadable !== undefined) {
    body = `[UNREADABLE: ${section.file} could not be read (${section.unreadable}); its entries are not shown and writes to it are refused until it is fixed]`;
  } else if (section.entries.length === 0) {
    return '';
  } else {
    body = section.entries.join(MEMORY_ENTRY_SEPARATOR);
  }
  return `${RULE}\n${heading}\n${RULE}\n${body}`;
}

/** The system-prompt text of a snapshot: the MEMORY block, then the USER PROFILE block. */
export function renderMemorySnapshot(
  memory: MemorySnapshotSection,
  user: MemorySnapshotSection,
): string {
  return [renderSnapshotSection(memory), renderSnapshotSection(user)]
    .filter((block) => block !== '')
    .join('\n\n');
}
