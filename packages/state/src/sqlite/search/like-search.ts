/**
 * The LIKE strategy: substring search without an index, for 1–2 character CJK terms (below what
 * the trigram tokenizer matches), ASCII fragments from the middle of a word, and SQLite builds
 * without the trigram tokenizer.
 */
import type Database from 'better-sqlite3';
import { z } from 'zod';
import type { SearchHit } from '../../search.js';
import { FILTER_SQL, HIT_COLUMNS, type SearchFilters, toHit } from './hit-row.js';
import { prepared } from './rows.js';
import { likeContains, type QueryTerm } from './sanitize.js';

/** Candidates read per requested hit before ranking in JavaScript: newest rows first. */
const CANDIDATES_PER_HIT = 5;
/** Characters of context on each side of the match in a snippet. */
const SNIPPET_CONTEXT = 40;

const LikeRowSchema = z.object({
  id: z.number().int().positive(),
  session_id: z.string().min(1),
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  created_at: z.number().int().nonnegative(),
  active: z.number(),
  content: z.string().nullable(),
  tool_name: z.string().nullable(),
  tool_args: z.string().nullable(),
});
type LikeRow = z.infer<typeof LikeRowSchema>;

/**
 * The statement for `terms`: each term must occur in some indexed column, joined as typed. SQL's
 * precedence (NOT, AND, OR) is FTS5's, so `a OR b NOT c` reads `a OR (b AND NOT c)` in both.
 */
function likeSql(terms: readonly QueryTerm[]): string {
  const conditions = terms.map((term, i) => {
    const like = `LIKE @t${i} ESCAPE '\\'`;
    const condition = `(t.content ${like} OR t.tool_name ${like} OR t.tool_args ${like})`;
    if (i === 0) return condition;
    if (term.join === 'AND') return `AND ${condition}`;
    if (term.join === 'OR') return `OR ${condition}`;
    // A NULL column makes the condition NULL, not false; NOT NULL would drop the row.
    return `AND NOT ifnull(${condition}, 0)`;
  });
  // messages_fts holds every row's indexed text (messages_trigram only the non-ASCII rows).
  return `SELECT ${HIT_COLUMNS}, t.content, t.tool_name, t.tool_args
  FROM messages_fts t JOIN messages m ON m.id = t.rowid
  WHERE (${conditions.join(' ')}) AND ${FILTER_SQL}
  ORDER BY m.id DESC LIMIT @limit`;
}

function countOccurrences(haystack: string, needle: string): number {
  let count = 0;
  for (
    let at = haystack.indexOf(needle);
    at !== -1;
    at = haystack.indexOf(needle, at + needle.length)
  ) {
    count += 1;
  }
  return count;
}

/** Text around the first occurrence of a term, marked like the FTS snippets. */
function likeSnippet(texts: readonly string[], terms: readonly string[]): string {
  for (const text of texts) {
    const lower = text.toLowerCase();
    for (const term of terms) {
      const at = lower.indexOf(term.toLowerCase());
      if (at === -1) continue;
      const start = Math.max(0, at - SNIPPET_CONTEXT);
      const end = Math.min(text.length, at + term.length + SNIPPET_CONTEXT);
      return `${start > 0 ? '…' : ''}${text.slice(start, at)}>>>${text.slice(at, at + term.length)}<<<${text.slice(at + term.length, end)}${end < text.length ? '…' : ''}`;
    }
  }
  return '';
}

function scoreRow(row: LikeRow, terms: readonly string[]): SearchHit {
  const texts = [row.content, row.tool_name, row.tool_args].filter((t): t is string => t !== null);
  const lowerTexts = texts.map((t) => t.toLowerCase());
  let occurrences = 0;
  for (const term of terms) {
    const needle = term.toLowerCase();
    for (const text of lowerTexts) occurrences += countOccurrences(text, needle);
  }
  return toHit({ ...row, snippet: likeSnippet(texts, terms), rank: 0 }, occurrences);
}

/**
 * Rows matching the terms as joined (case-insensitive for ASCII, as LIKE is; without operators,
 * rows containing every term), ranked by how often the wanted terms occur (not those after
 * `NOT`), newer first on ties. `%`, `_` and `\` in terms match literally.
 */
export function likeSearch(
  db: Database.Database,
  terms: readonly QueryTerm[],
  filters: SearchFilters,
): SearchHit[] {
  const params: Record<string, string | number | null> = {
    ...filters,
    limit: filters.limit * CANDIDATES_PER_HIT,
  };
  terms.forEach((term, i) => {
    params[`t${i}`] = likeContains(term.text);
  });
  const sql = likeSql(terms);
  // Plain AND queries share one cached statement per term count; a statement with OR / NOT is
  // prepared for this call only, so varied operator patterns cannot grow the cache without bound.
  const statement = terms.every((t) => t.join === 'AND') ? prepared(db, sql) : db.prepare(sql);
  const wanted = terms.filter((term) => term.join !== 'NOT').map((term) => term.text);
  const rows = statement.all(params);
  const hits = rows.map((raw) => scoreRow(LikeRowSchema.parse(raw), wanted));
  hits.sort((a, b) => b.score - a.score || b.messageId - a.messageId);
  return hits.slice(0, filters.limit);
}
