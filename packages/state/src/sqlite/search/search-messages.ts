/**
 * `searchMessages`: ranked full-text search over stored messages (content, tool name, tool-call
 * arguments). Word queries use the unicode61 index with bm25; CJK text and word fragments use the
 * trigram index; 1–2 character substrings, or a build without the trigram tokenizer, use LIKE.
 */
import type Database from 'better-sqlite3';
import type { SearchHit, SearchOptions } from '../../search.js';
import { flushFtsIndex } from '../fts-index.js';
import { FILTER_SQL, HIT_COLUMNS, RankedRowSchema, type SearchFilters, toHit } from './hit-row.js';
import { likeSearch } from './like-search.js';
import { clampCount, prepared } from './rows.js';
import {
  charLength,
  containsCjk,
  prefixQuery,
  type QueryTerm,
  sanitizeFts5Query,
  substringTerms,
  trigramQuery,
} from './sanitize.js';

/** Options of {@link searchMessages}: the seam's options plus the search modes' filters. */
export interface MessageSearchOptions extends SearchOptions {
  /** Include archived (compacted, inactive) rows. Default `true`; wins over `activeOnly`. */
  readonly includeArchived?: boolean;
  /** Only rows with one of these roles. */
  readonly roles?: readonly ('system' | 'user' | 'assistant' | 'tool')[];
}

/** Default and largest number of hits. */
const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 1000;

/**
 * A ranked MATCH over one FTS table. bm25 is lower-is-better, so the score is its negation.
 * Tool arguments are JSON full of keys, so they weigh half as much as content and tool names.
 */
function ftsStatementSql(
  table: 'messages_fts' | 'messages_trigram',
  snippetTokens: number,
): string {
  return `SELECT ${HIT_COLUMNS},
    snippet(${table}, -1, '>>>', '<<<', '…', ${snippetTokens}) AS snippet,
    bm25(${table}, 1.0, 1.0, 0.5) AS rank
  FROM ${table} JOIN messages m ON m.id = ${table}.rowid
  WHERE ${table} MATCH @match AND ${table}.rowid >= @floor AND ${FILTER_SQL}
  ORDER BY rank, m.id DESC LIMIT @limit`;
}

/**
 * How many of the newest matches a query ranks. bm25 must score every match before `LIMIT`
 * applies, so a term found in most of a million messages would take hundreds of milliseconds;
 * ranking only the newest matches keeps every query fast, and recent history is what the agent
 * usually needs. Rare and mid-frequency terms (fewer matches than this) are ranked in full.
 */
export const RANKED_CANDIDATES = 1000;

/**
 * The lowest rowid among the newest {@link RANKED_CANDIDATES} matches, or 0 when there are fewer.
 * FTS5 walks its doclist newest-first and stops at the offset, so this is cheap even for common
 * terms. A session-scoped search ranks all of that session's matches instead.
 */
function candidateFloor(
  db: Database.Database,
  table: 'messages_fts' | 'messages_trigram',
  match: string,
  filters: SearchFilters,
): number {
  if (filters.sessionId !== null) return 0;
  const row = prepared(
    db,
    `SELECT rowid AS id FROM ${table} WHERE ${table} MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ${RANKED_CANDIDATES - 1}`,
  ).get(match) as { id: number } | undefined;
  return row?.id ?? 0;
}

function runFts(
  db: Database.Database,
  table: 'messages_fts' | 'messages_trigram',
  match: string,
  filters: SearchFilters,
): SearchHit[] {
  const sql = ftsStatementSql(table, table === 'messages_fts' ? 12 : 32);
  const floor = candidateFloor(db, table, match, filters);
  const rows = prepared(db, sql).all({ ...filters, match, floor });
  return rows.map((raw) => {
    const row = RankedRowSchema.parse(raw);
    return toHit(row, -row.rank);
  });
}

/** False only when the store recorded that the trigram tokenizer is unavailable. */
export function trigramAvailable(db: Database.Database): boolean {
  const row = prepared(
    db,
    "SELECT value FROM kv WHERE namespace = 'state' AND key = 'trigram'",
  ).get() as { value: string } | undefined;
  return row === undefined || row.value.trim() !== 'false';
}

function isNonAscii(text: string): boolean {
  return [...text].some((char) => (char.codePointAt(0) ?? 0) > 0x7f);
}

/**
 * Only rows with non-ASCII text are in the trigram index (see migrations.ts), so it answers a
 * query only when every row the query can match has some: every `OR` alternative must require a
 * non-ASCII term (one not joined by `NOT`). `数据库 OR hello` would miss ASCII rows there.
 */
function trigramCovers(terms: readonly QueryTerm[]): boolean {
  let covered = false;
  for (const term of terms) {
    if (term.join === 'OR') {
      if (!covered) return false;
      covered = false;
    }
    if (term.join !== 'NOT' && isNonAscii(term.text)) covered = true;
  }
  return covered;
}

/**
 * Substring search: trigram when every term has ≥ 3 characters and the index exists, else LIKE.
 * With `fragmentsOnly` (the fallback of a word query) terms under 3 characters search nothing:
 * `%a%` would match nearly every row. Every strategy keeps the query's `OR` / `NOT` joins.
 */
function substringSearch(
  db: Database.Database,
  query: string,
  filters: SearchFilters,
  fragmentsOnly: boolean,
): SearchHit[] {
  const terms = substringTerms(query);
  if (terms.length === 0) return [];
  const trigramFits = terms.every((term) => charLength(term.text) >= 3);
  if (fragmentsOnly && !trigramFits) return [];
  const nonAscii = terms.some((term) => isNonAscii(term.text));
  if (trigramFits && trigramCovers(terms) && trigramAvailable(db)) {
    return runFts(db, 'messages_trigram', trigramQuery(terms), filters);
  }
  if (!nonAscii) {
    // A word fragment is most often a word's start (`sqlit` in `sqlite`): a prefix query on the
    // word index finds it fast; LIKE catches fragments from a word's middle.
    const prefixHits = runFts(db, 'messages_fts', prefixQuery(terms), filters);
    if (prefixHits.length > 0) return prefixHits;
  }
  return likeSearch(db, terms, filters);
}

function toFilters(options: MessageSearchOptions): SearchFilters {
  const includeArchived = options.includeArchived ?? !(options.activeOnly ?? false);
  const limit = clampCount(options.limit, DEFAULT_LIMIT, MAX_LIMIT);
  return {
    sessionId: options.sessionId ?? null,
    source: options.source ?? null,
    includeArchived: includeArchived ? 1 : 0,
    roles: options.roles === undefined ? null : JSON.stringify(options.roles),
    limit,
  };
}

/**
 * Searches stored messages, best hit first. Any input is a valid query: punctuation is never
 * interpreted, uppercase `AND` / `OR` / `NOT` between two terms keep their FTS5 meaning in every
 * strategy (one at either end, or a run of them, is dropped), and a query with nothing
 * searchable returns no hits.
 *
 * Strategy: a query containing CJK text is a substring search (unicode61 would need the whole run
 * of characters). Other queries use the unicode61 index with bm25; when that finds nothing, a
 * substring search catches word fragments of 3 or more characters (`sqlit` in `sqlite`). Snippets mark the match with
 * `>>>` and `<<<`.
 */
export function searchMessages(
  db: Database.Database,
  query: string,
  options: MessageSearchOptions = {},
): SearchHit[] {
  flushFtsIndex(db);
  const filters = toFilters(options);
  if (containsCjk(query)) return substringSearch(db, query, filters, false);
  const match = sanitizeFts5Query(query);
  if (match === '') return [];
  const hits = runFts(db, 'messages_fts', match, filters);
  if (hits.length > 0) return hits;
  return substringSearch(db, query, filters, true);
}
