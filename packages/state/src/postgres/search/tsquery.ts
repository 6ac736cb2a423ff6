/**
 * Turning query terms into a PostgreSQL `tsquery` expression. Nothing the user types reaches a
 * query parser as syntax: a plain term is one quoted phrase given to `websearch_to_tsquery`
 * (which never raises a syntax error), a prefix term (`deploy*`) is built from its letters and
 * digits only, and the joins between terms are SQL operators written here, not parsed.
 */
import type { QueryTerm } from '../../sqlite/search/sanitize.js';
import type { Params } from './filters.js';

const WORD_PIECES = /[\p{L}\p{N}]+/gu;

/** One term as a tsquery SQL expression. */
function termSql(term: QueryTerm, params: Params): string {
  if (term.prefix) {
    const pieces = term.text.toLowerCase().match(WORD_PIECES) ?? [];
    // Only letters and digits inside the quotes: no tsquery syntax can be spelled.
    const text = pieces.map((piece) => `'${piece}':*`).join(' <-> ');
    return `to_tsquery('simple'::regconfig, ${params.add(text)})`;
  }
  // Inside a websearch phrase only `"` has a meaning; the rest is text the parser tokenizes.
  const phrase = `"${term.text.replaceAll('"', ' ')}"`;
  return `websearch_to_tsquery('simple'::regconfig, ${params.add(phrase)})`;
}

/**
 * The terms as one tsquery expression with FTS5's precedence (`NOT` binds tightest, then `AND`,
 * then `OR`). PostgreSQL gives `&&`, `||` and `!!` one precedence, so the groups are
 * parenthesized here: `a OR b NOT c` becomes `(a) || (b && !!c)`.
 */
export function tsquerySql(terms: readonly QueryTerm[], params: Params): string {
  const groups: string[][] = [];
  for (const term of terms) {
    const sql = `(${termSql(term, params)})`;
    const current = groups[groups.length - 1];
    if (current === undefined || term.join === 'OR') groups.push([sql]);
    else current.push(term.join === 'NOT' ? `!!${sql}` : sql);
  }
  return groups.map((group) => `(${group.join(' && ')})`).join(' || ');
}
