/**
 * Ranked search over stored messages with PostgreSQL's own text search, porting the SQLite
 * strategy (`../../sqlite/search/search-messages.ts`): word queries use the `simple` tsvector
 * (GIN) ranked by `ts_rank`; CJK queries, and word queries that found nothing (fragments such as
 * `sqlit`), use substring search (`ILIKE`, served by the `pg_trgm` GIN index).
 */
import type { SearchHit } from '../../search.js';
import {
  charLength,
  containsCjk,
  extractTerms,
  likeContains,
  type QueryTerm,
  substringTerms,
} from '../../sqlite/search/sanitize.js';
import type { PostgresDatabase } from '../database.js';
import { TRIGRAM_TEXT_SQL } from '../migrations.js';
import { unescapeNul } from '../nul-escape.js';
import {
  filterSql,
  Params,
  type PostgresSearchOptions,
  type SearchFilters,
  toFilters,
} from './filters.js';
import { HIT_COLUMNS, HitRowSchema, toHit } from './hit-row.js';
import { occurrences, substringSnippet } from './snippet.js';
import { tsquerySql } from './tsquery.js';

/**
 * How many of the newest matches a query ranks (as in SQLite): `ts_rank` reads every match's
 * tsvector, so a term found in most of a million rows would be slow; recent history is what the
 * agent usually needs. A session-scoped search ranks all of that session's matches.
 */
export const RANKED_CANDIDATES = 1000;
/** Candidates read per requested hit by substring search, newest first, before ranking. */
const CANDIDATES_PER_HIT = 5;
/** Headline options: the match marked like FTS5 snippets, about a dozen words around it. */
const HEADLINE_OPTIONS = 'StartSel=>>>, StopSel=<<<, MaxWords=14, MinWords=6, ShortWord=0';

/**
 * Runs one search statement with parallel workers off: starting a worker costs tens of
 * milliseconds, more than the whole search of a rare word (measured: 2 ms of work in 80 ms).
 */
function searchQuery(
  db: PostgresDatabase,
  sql: string,
  params: readonly unknown[],
): Promise<Record<string, unknown>[]> {
  return db.transaction(async (client) => {
    await client.query('SET LOCAL max_parallel_workers_per_gather = 0');
    return (await client.query(sql, params as unknown[])).rows;
  });
}

async function wordSearch(
  db: PostgresDatabase,
  terms: readonly QueryTerm[],
  filters: SearchFilters,
): Promise<SearchHit[]> {
  const params = new Params();
  const query = tsquerySql(terms, params);
  const where = filterSql(filters, params);
  const cap = filters.sessionId === null ? `LIMIT ${RANKED_CANDIDATES}` : '';
  // The tsquery is written inline, not joined from a CTE: the planner then folds it to a
  // constant and estimates its matches from the column statistics, so a common word walks the
  // primary key newest-first and stops at the cap, while a rare one uses the GIN index.
  const rows = await searchQuery(
    db,
    `WITH candidates AS (
       SELECT m.id FROM messages m WHERE m.search_tsv @@ (${query}) AND ${where}
       ORDER BY m.id DESC ${cap}),
     ranked AS (
       SELECT ${HIT_COLUMNS}, m.search_text, ts_rank(m.search_tsv, ${query}) AS rank
       FROM candidates c JOIN messages m ON m.id = c.id
       ORDER BY rank DESC, m.id DESC LIMIT ${params.add(filters.limit)})
     SELECT r.id, r.session_id, r.role, r.created_at, r.active, r.rank,
       ts_headline('simple'::regconfig, r.search_text, ${query}, '${HEADLINE_OPTIONS}') AS snippet
     FROM ranked r ORDER BY r.rank DESC, r.id DESC`,
    params.values,
  );
  return rows.map((raw) => toHit(HitRowSchema.parse(raw), Number(raw.rank)));
}

/**
 * Each term must occur in the indexed text, joined as typed (SQL's precedence is FTS5's). A term
 * under 3 characters has no trigram, so the index would return every row: such a query spells
 * the text differently (`|| ''`) to keep the planner off the index, and walks the newest rows.
 */
function substringConditions(terms: readonly QueryTerm[], params: Params): string {
  const short = terms.some((term) => charLength(term.text) < 3);
  const text = short ? `(${TRIGRAM_TEXT_SQL} || '')` : TRIGRAM_TEXT_SQL;
  return terms
    .map((term, i) => {
      const condition = `${text} ILIKE ${params.add(likeContains(term.text))} ESCAPE '\\'`;
      if (i === 0) return condition;
      if (term.join === 'OR') return `OR ${condition}`;
      return term.join === 'NOT' ? `AND NOT ${condition}` : `AND ${condition}`;
    })
    .join(' ');
}

/**
 * Substring search: rows containing the terms as joined, ranked by how often the wanted terms
 * occur, newer first on ties. With `fragmentsOnly` (the fallback of a word query) a term under 3
 * characters searches nothing: `%a%` would match nearly every row.
 */
async function substringSearch(
  db: PostgresDatabase,
  query: string,
  filters: SearchFilters,
  fragmentsOnly: boolean,
): Promise<SearchHit[]> {
  const terms = substringTerms(query);
  if (terms.length === 0) return [];
  if (fragmentsOnly && terms.some((term) => charLength(term.text) < 3)) return [];
  const params = new Params();
  const rows = await searchQuery(
    db,
    `SELECT ${HIT_COLUMNS}, m.search_text || ' ' || m.search_args AS body, NULL AS snippet
     FROM messages m
     WHERE (${substringConditions(terms, params)}) AND ${filterSql(filters, params)}
     ORDER BY m.id DESC LIMIT ${params.add(filters.limit * CANDIDATES_PER_HIT)}`,
    params.values,
  );
  const wanted = terms.filter((term) => term.join !== 'NOT').map((term) => term.text);
  const hits = rows.map((raw) => {
    const body = unescapeNul(String(raw.body));
    const row = HitRowSchema.parse({ ...raw, snippet: substringSnippet(body, wanted) });
    return toHit(row, occurrences(body, wanted));
  });
  hits.sort((a, b) => b.score - a.score || b.messageId - a.messageId);
  return hits.slice(0, filters.limit);
}

/**
 * Searches stored messages, best hit first. Any input is a valid query: punctuation is never
 * interpreted, uppercase `AND` / `OR` / `NOT` between two terms keep their meaning, a trailing
 * `*` asks for a prefix, and a query with nothing searchable returns no hits. Snippets mark the
 * match with `>>>` and `<<<`.
 */
export async function searchMessagesPg(
  db: PostgresDatabase,
  query: string,
  options: PostgresSearchOptions = {},
): Promise<SearchHit[]> {
  const filters = toFilters(options);
  if (containsCjk(query)) return substringSearch(db, query, filters, false);
  const terms = extractTerms(query);
  if (terms.length === 0) return [];
  const hits = await wordSearch(db, terms, filters);
  if (hits.length > 0) return hits;
  return substringSearch(db, query, filters, true);
}
