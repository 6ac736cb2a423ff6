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

/**
 * How a term combines with the terms before it, as in FTS5: `NOT` binds tightest (`a NOT b` is
 * "a and not b"), then `AND` (also written as plain juxtaposition), then `OR`. A query is a flat
 * sequence of terms and joins, so every strategy (FTS5, trigram, LIKE) reads it the same way.
 */
export type TermJoin = 'AND' | 'OR' | 'NOT';

/**
 * The words a user types as boolean operators. Only uppercase, as FTS5 itself spells them: in
 * lowercase they are far more often prose (`salt and pepper`), so they stay words.
 */
const OPERATORS: ReadonlySet<string> = new Set<TermJoin>(['AND', 'OR', 'NOT']);

/** One whitespace-separated piece of a user query. */
export interface QueryTerm {
  /** The piece as typed, without a trailing `*`. */
  readonly text: string;
  /** The user asked for a prefix match (`deploy*`). */
  readonly prefix: boolean;
  /** How it joins the terms before it; `AND` for the first term. */
  readonly join: TermJoin;
}

/**
 * Splits a query on whitespace and control characters into terms, dropping pieces with no letter
 * or digit (`***`, `--`), which could never match a token anyway. An uppercase `AND`, `OR` or
 * `NOT` standing alone between two terms becomes the join of the term after it. One at either
 * end, or next to another operator (`a AND OR b`), is dropped rather than searched for as a word:
 * it is what a person types on the way to a query, and its meaning is unknown.
 */
export function extractTerms(query: string): QueryTerm[] {
  const terms: QueryTerm[] = [];
  let operators: TermJoin[] = [];
  // Control characters separate terms: a NUL would end the query string inside SQLite.
  for (const piece of query.replace(/\p{Cc}/gu, ' ').split(/\s+/u)) {
    if (OPERATORS.has(piece)) {
      operators.push(piece as TermJoin);
      continue;
    }
    const text = piece.replace(/\*+$/u, '');
    if (!WORD_CHAR.test(text)) continue;
    const join = terms.length > 0 && operators.length === 1 ? (operators[0] as TermJoin) : 'AND';
    terms.push({ text, prefix: text.length < piece.length, join });
    operators = [];
    if (terms.length === MAX_TERMS) break;
  }
  return terms;
}

/** Quotes text as one FTS5 string: the only escape inside a string is a doubled quote. */
function quoteFts5(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

/**
 * Joins terms into one FTS5 expression, each rendered by `phrase`: an implicit AND is a space,
 * the other joins are spelled out. Only ever called with terms from {@link extractTerms}, so no
 * operator dangles.
 */
function joinFts5(terms: readonly QueryTerm[], phrase: (term: QueryTerm) => string): string {
  return terms
    .map((term, i) => (i === 0 || term.join === 'AND' ? '' : `${term.join} `) + phrase(term))
    .join(' ');
}

/**
 * Turns any user input into a safe FTS5 MATCH expression: every term becomes a quoted phrase
 * (so `NEAR`, `:`, `(`, `{`, `^`, `-` and lowercase `and`/`or`/`not` are plain text, and the
 * tokenizer splits `chat-send` into the adjacent words it indexed), terms are ANDed unless an
 * uppercase `OR` or `NOT` stands between them (see {@link extractTerms}), and a trailing `*` on a
 * term is kept as a prefix query. Returns `''` when nothing searchable is left: the caller
 * returns no hits instead of running a query.
 */
export function sanitizeFts5Query(query: string): string {
  return joinFts5(
    extractTerms(query),
    (term) => `${quoteFts5(term.text)}${term.prefix ? '*' : ''}`,
  );
}

/**
 * The terms of a query for substring search (trigram or LIKE), with their joins: edge
 * punctuation trimmed, so `数据库？` still finds `数据库坏了`; inner punctuation (`chat-send`,
 * `P2.2`) is kept. Every term keeps a letter or digit, so none is empty.
 */
export function substringTerms(query: string): QueryTerm[] {
  return extractTerms(query).map((term) => ({
    ...term,
    text: term.text.replace(EDGE_PUNCTUATION, ''),
  }));
}

/** A trigram MATCH expression: each substring term as a quoted phrase, joined as typed. */
export function trigramQuery(terms: readonly QueryTerm[]): string {
  return joinFts5(terms, (term) => quoteFts5(term.text));
}

/** A word-index MATCH expression with each term as a prefix (`"sqlit"*`), joined as typed. */
export function prefixQuery(terms: readonly QueryTerm[]): string {
  return joinFts5(terms, (term) => `${quoteFts5(term.text)}*`);
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
