/**
 * Turning free user text into safe full-text queries: FTS5 MATCH expressions, trigram phrases and
 * LIKE patterns. Nothing the user types may reach the FTS5 query parser as syntax.
 */

/** A letter or digit in any script: the characters the unicode61 tokenizer keeps. */
const WORD_CHAR = /[\p{L}\p{N}]/u;
/** Leading or trailing characters that are neither letters nor digits. */
const EDGE_PUNCTUATION = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu;
/**
 * Scripts written without spaces between words. unicode61 makes a whole run of them one token,
 * so a word inside a sentence is only found by substring search (trigram or LIKE).
 */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/** More terms than this are dropped: a pasted page must not become a thousand-term query. */
const MAX_TERMS = 32;

/** One whitespace-separated piece of a user query. */
export interface QueryTerm {
  /** The piece as typed, without a trailing `*`. */
  readonly text: string;
  /** The user asked for a prefix match (`deploy*`). */
  readonly prefix: boolean;
}

/**
 * Splits a query on whitespace and control characters into terms, dropping pieces with no letter or digit (`***`, `--`),
 * which could never match a token anyway.
 */
export function extractTerms(query: string): QueryTerm[] {
  const terms: QueryTerm[] = [];
  // Control characters separate terms: a NUL would end the query string inside SQLite.
  for (const piece of query.replace(/\p{Cc}/gu, ' ').split(/\s+/u)) {
    const text = piece.replace(/\*+$/u, '');
    if (!WORD_CHAR.test(text)) continue;
    terms.push({ text, prefix: text.length < piece.length });
    if (terms.length === MAX_TERMS) break;
  }
  return terms;
}

/** Quotes text as one FTS5 string: the only escape inside a string is a doubled quote. */
function quoteFts5(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

/**
 * Turns any user input into a safe FTS5 MATCH expression: every term becomes a quoted phrase
 * (so `AND`, `OR`, `NEAR`, `:`, `(`, `{`, `^`, `-` are plain text, and the tokenizer splits
 * `chat-send` into the adjacent words it indexed), terms are ANDed, and a trailing `*` on a term
 * is kept as a prefix query. Returns `''` when nothing searchable is left: the caller returns no
 * hits instead of running a query.
 */
export function sanitizeFts5Query(query: string): string {
  return extractTerms(query)
    .map((term) => `${quoteFts5(term.text)}${term.prefix ? '*' : ''}`)
    .join(' ');
}

/**
 * The terms of a query for substring search (trigram or LIKE): edge punctuation trimmed, so
 * `数据库？` still finds `数据库坏了`; inner punctuation (`chat-send`, `P2.2`) is kept.
 */
export function substringTerms(query: string): string[] {
  return extractTerms(query)
    .map((term) => term.text.replace(EDGE_PUNCTUATION, ''))
    .filter((text) => text.length > 0);
}

/** A trigram MATCH expression: each substring term as a quoted phrase, ANDed. */
export function trigramQuery(terms: readonly string[]): string {
  return terms.map(quoteFts5).join(' ');
}

/** True when the text contains a character of a script written without word spaces. */
export function containsCjk(text: string): boolean {
  return CJK.test(text);
}

/** Length in characters (code points), which is what the trigram tokenizer counts. */
export function charLength(text: string): number {
  return [...text].length;
}

/**
 * A `LIKE … ESCAPE '\'` pattern matching `text` anywhere: `%`, `_` and the escape character
 * itself are escaped so they match literally.
 */
export function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/gu, (c) => `\\${c}`)}%`;
}
