/** Snippets of substring hits, marked like the text-search headlines (`>>>match<<<`). */

/** Characters of context on each side of the match. */
const SNIPPET_CONTEXT = 40;

/** Text around the first occurrence of any term (case-insensitive), or `''`. */
export function substringSnippet(text: string, terms: readonly string[]): string {
  const lower = text.toLowerCase();
  for (const term of terms) {
    const at = lower.indexOf(term.toLowerCase());
    if (at === -1) continue;
    const start = Math.max(0, at - SNIPPET_CONTEXT);
    const end = Math.min(text.length, at + term.length + SNIPPET_CONTEXT);
    const before = `${start > 0 ? '…' : ''}${text.slice(start, at)}`;
    const after = `${text.slice(at + term.length, end)}${end < text.length ? '…' : ''}`;
    return `${before}>>>${text.slice(at, at + term.length)}<<<${after}`;
  }
  return '';
}

/** How often the terms occur in the text (case-insensitive): the substring strategy's score. */
export function occurrences(text: string, terms: readonly string[]): number {
  const lower = text.toLowerCase();
  let count = 0;
  for (const term of terms) {
    const needle = term.toLowerCase();
    for (
      let at = lower.indexOf(needle);
      at !== -1;
      at = lower.indexOf(needle, at + needle.length)
    ) {
      count += 1;
    }
  }
  return count;
}
