/**
 * Repairing tool names a model got slightly wrong. Case, separators and a `functions.` prefix are
 * repaired silently (the intent is unambiguous); a typo is repaired only when exactly one known
 * name is very close, otherwise the close names are offered back so the model can pick.
 */

/** Outcome of {@link repairToolName}. */
export type NameRepair =
  | { readonly kind: 'exact'; readonly name: string }
  | { readonly kind: 'repaired'; readonly name: string; readonly from: string }
  | { readonly kind: 'unknown'; readonly suggestions: readonly string[] };

/** Similarity (1 − distance / longer length) at or above which a unique typo is repaired. */
export const AUTO_REPAIR_SIMILARITY = 0.85;
/** Similarity at or above which a name is offered as a suggestion. */
export const SUGGEST_SIMILARITY = 0.5;

const PREFIX_RE = /^(?:functions?|tools?|default_api)[.:/]/i;

/** Lower-case, `-`/space/`.` → `_`, no repeated or edge underscores, known prefixes dropped. */
export function normalizeToolName(name: string): string {
  return name
    .trim()
    .replace(PREFIX_RE, '')
    .toLowerCase()
    .replace(/[\s.-]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_|_$/g, '');
}

/** Levenshtein edit distance, two rows. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

function similarity(a: string, b: string): number {
  const longer = Math.max(a.length, b.length);
  return longer === 0 ? 1 : 1 - editDistance(a, b) / longer;
}

/**
 * Finds which of `known` the model meant by `name`.
 *
 * @param name - The name the model sent.
 * @param known - The names it may call.
 * @param maxSuggestions - How many close names to offer when no repair is safe (default 5).
 */
export function repairToolName(
  name: string,
  known: Iterable<string>,
  maxSuggestions = 5,
): NameRepair {
  const names = [...known];
  if (names.includes(name)) return { kind: 'exact', name };
  const wanted = normalizeToolName(name);
  const normalizedHits = names.filter((n) => normalizeToolName(n) === wanted);
  if (normalizedHits.length === 1 && normalizedHits[0] !== undefined) {
    return { kind: 'repaired', name: normalizedHits[0], from: name };
  }
  const scored = names
    .map((n) => ({ name: n, score: similarity(wanted, normalizeToolName(n)) }))
    .filter((s) => s.score >= SUGGEST_SIMILARITY)
    .sort((a, b) => b.score - a.score || a.name.localeCompare(b.name));
  const [best, second] = scored;
  if (best && best.score >= AUTO_REPAIR_SIMILARITY && (!second || second.score < best.score)) {
    return { kind: 'repaired', name: best.name, from: name };
  }
  const contains = names.filter(
    (n) =>
      wanted.length >= 3 &&
      normalizeToolName(n).includes(wanted) &&
      !scored.some((s) => s.name === n),
  );
  const suggestions = [...scored.map((s) => s.name), ...contains].slice(0, maxSuggestions);
  return { kind: 'unknown', suggestions };
}
