/** The on-disk format of MEMORY.md / USER.md: entries separated by a line holding only `§`. */

/** What separates two entries in MEMORY.md and USER.md. Entries themselves may span lines. */
export const MEMORY_ENTRY_SEPARATOR = '\n§\n';

// Tolerates hand edits: spaces around the `§` and Windows line ends still split entries.
const SEPARATOR_PATTERN = /\r?\n[ \t]*§[ \t]*\r?\n/;

/** Splits a memory file's text into trimmed, non-empty entries. */
export function parseMemoryEntries(text: string): string[] {
  const body = text.replace(/^\uFEFF/, '');
  if (body.trim() === '' || body.trim() === '§') return [];
  return body
    .split(SEPARATOR_PATTERN)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '' && entry !== '§');
}

/** Joins entries into a memory file's text (no trailing separator). */
export function serializeMemoryEntries(entries: readonly string[]): string {
  return entries.join(MEMORY_ENTRY_SEPARATOR);
}

/** Characters the entries take on disk, separators included: what the limits are measured in. */
export function memoryCharCount(entries: readonly string[]): number {
  return serializeMemoryEntries(entries).length;
}

/** `1,234/2,200 chars`: how full a store is, as the tool and the prompt show it. */
export function formatMemoryUsage(used: number, limit: number): string {
  return `${groupDigits(used)}/${groupDigits(limit)} chars`;
}

/**
 * `1375` → `1,375`. Not `toLocaleString`: its first call loads ICU locale data, ~200 ms of every
 * CLI start, for a comma.
 */
export function groupDigits(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
