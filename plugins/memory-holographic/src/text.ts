/** Words, entities and the text vectors built from them. */
const STOPWORDS = new Set(
  'a an and are as at be but by do does for from has have how i in is it its me my of on or our so that the their them then there these they this to us was we were what when where which who why will with you your'.split(
    ' ',
  ),
);

/** Lower-case content words (2+ letters or digits, stopwords dropped), in order, unique. */
export function contentWords(text: string): string[] {
  // The same split as the FTS5 unicode61 tokenizer, so both rankers see the same words.
  const words = text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
  return [...new Set(words.filter((word) => word.length >= 2 && !STOPWORDS.has(word)))];
}

/** |A ∩ B| / |A ∪ B| of two word sets; 0 when both are empty. */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let shared = 0;
  for (const word of a) if (b.has(word)) shared += 1;
  return shared / (a.size + b.size - shared);
}

const COMMON_CAPITALIZED = new Set(
  'The A An And But Or If When Then This That These Those It Its We I You He She They User Users Always Never Use Uses Prefer Prefers Note Remember Our My Your'.split(
    ' ',
  ),
);

/**
 * Named things in a fact: quoted or back-ticked terms, and runs of capitalized words (`Ada
 * Lovelace`, `PostgreSQL`), lower-cased; at most 10.
 */
export function extractEntities(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/["'`“]([^"'`”\n]{2,60})["'`”]/g)) found.push(match[1] ?? '');
  for (const match of text.matchAll(/\b[A-Z][\p{L}\p{N}+#.-]*(?:\s+[A-Z][\p{L}\p{N}+#.-]*)*/gu)) {
    const words = match[0]
      .replace(/[.-]+$/, '')
      .split(/\s+/)
      .filter((w) => !COMMON_CAPITALIZED.has(w));
    if (words.length > 0 && words.join(' ').length >= 2) found.push(words.join(' '));
  }
  return [
    ...new Set(found.map((name) => name.trim().toLowerCase()).filter((n) => n.length >= 2)),
  ].slice(0, 10);
}
