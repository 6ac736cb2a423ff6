/**
 * The first stage of search: FTS5 candidates. FTS5 scores (bm25) every row a query matches before
 * it can sort, so an OR over a word found in a quarter of all facts costs tens of milliseconds at
 * 100,000 facts. Words that common say little about relevance anyway, so they are left out of the
 * OR; an AND over all the words still finds the facts that contain them together with the rest.
 */
import type Database from 'better-sqlite3';
import { WITH_VECTOR } from './entity-queries.js';
import { type FactRow, type FactWithVector, toFactWithVector } from './fact-row.js';

/** One FTS5 candidate: the fact and its bm25 rank (more negative is better). */
export interface FtsCandidate {
  readonly fact: FactWithVector;
  readonly rank: number;
}

/** A word found in more facts than this is too common to OR on its own. */
export const COMMON_WORD_DOCS = 2_000;

const quote = (word: string) => `"${word.replace(/"/g, '""')}"`;

/** An FTS5 query matching any of `words`, each quoted so no word is read as syntax. */
export function ftsOrQuery(words: readonly string[]): string | undefined {
  return words.length > 0 ? words.map(quote).join(' OR ') : undefined;
}

/** Finds FTS5 candidates for a list of query words. */
export class FtsCandidates {
  private readonly match: Database.Statement;
  private readonly docs: Database.Statement;

  constructor(db: Database.Database) {
    // Rank inside FTS5 first, then join and filter by trust; over-fetch so the trust filter
    // rarely leaves fewer than `limit` candidates.
    this.match = db.prepare(
      `SELECT ${WITH_VECTOR}, m.rank AS rank FROM (
         SELECT rowid, rank FROM facts_fts WHERE facts_fts MATCH @match ORDER BY rank LIMIT @fetch
       ) m JOIN facts f ON f.id = m.rowid
       WHERE f.trust_score >= @minTrust AND (@category IS NULL OR f.category = @category)
       ORDER BY m.rank LIMIT @limit`,
    );
    this.docs = db.prepare('SELECT doc FROM facts_fts_vocab WHERE term = ?').pluck();
  }

  /** Up to `limit` candidates with trust ≥ `minTrust`, best bm25 first. */
  find(
    words: readonly string[],
    limit: number,
    minTrust: number,
    category?: string,
  ): FtsCandidate[] {
    if (words.length === 0) return [];
    const docs = new Map(
      words.map((word) => [word, (this.docs.get(word) as number | undefined) ?? 0]),
    );
    const selective = words.filter((word) => (docs.get(word) ?? 0) <= COMMON_WORD_DOCS);
    const found = new Map<number, FtsCandidate>();
    const run = (match: string) => {
      const params = { match, fetch: limit * 4, minTrust, category: category ?? null, limit };
      for (const row of this.match.all(params) as Array<FactRow & { rank: number }>) {
        if (!found.has(row.id)) found.set(row.id, { fact: toFactWithVector(row), rank: row.rank });
      }
    };
    if (words.length > 1) run(words.map(quote).join(' AND '));
    if (selective.length > 0) run(ftsOrQuery(selective) as string);
    else if (found.size === 0) {
      // Only common words, never all together: OR the two rarest of them.
      run(
        ftsOrQuery(
          [...words].sort((a, b) => (docs.get(a) ?? 0) - (docs.get(b) ?? 0)).slice(0, 2),
        ) as string,
      );
    }
    return [...found.values()].sort((a, b) => a.rank - b.rank).slice(0, limit);
  }
}
