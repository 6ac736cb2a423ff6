/**
 * Recall over the holographic store. `search` is hybrid: FTS5 finds candidates (limit × 3, trust
 * ≥ the floor), then each is scored 0.4 × its normalized FTS rank + 0.3 × word Jaccard + 0.3 ×
 * HRR similarity, times its trust (and an optional age decay). `probe`, `related` and `reason`
 * work on entities and vectors instead of words.
 */
import { type PhaseVector, similarity } from './hrr.js';
import { EntityQueries } from './store/entity-queries.js';
import type { FactWithVector } from './store/fact-row.js';
import type { HolographicFactStore } from './store/fact-store.js';
import { FtsCandidates, ftsOrQuery } from './store/fts-candidates.js';
import { contentWords, jaccard } from './text.js';

/** Weights of the three relevance signals. */
export const SEARCH_WEIGHTS = { fts: 0.4, jaccard: 0.3, hrr: 0.3 } as const;
/** Facts below this trust are never recalled. */
export const DEFAULT_MIN_TRUST = 0.3;

/** Options of {@link FactRetriever.search}. */
export interface FactSearchOptions {
  readonly limit?: number;
  readonly minTrust?: number;
  readonly category?: string;
  /** Halves a fact's score every this many days of age. Default: no decay. */
  readonly halfLifeDays?: number;
}

/** A recalled fact with its score and the parts it came from. */
export interface ScoredFact extends FactWithVector {
  readonly score: number;
  readonly relevance: number;
  readonly parts: { readonly fts: number; readonly jaccard: number; readonly hrr: number };
}

/** A pair of facts about the same entities that may disagree. */
export interface Contradiction {
  readonly a: FactWithVector;
  readonly b: FactWithVector;
  readonly sharedEntities: readonly string[];
  /** How differently the two are worded (1 - Jaccard). */
  readonly divergence: number;
}

const DAY_MS = 86_400_000;

/** The FTS5 query of a text: any of its first 16 content words, each quoted. */
export function ftsQuery(text: string): string | undefined {
  return ftsOrQuery(contentWords(text).slice(0, 16));
}

/** The read side of the holographic memory. */
export class FactRetriever {
  readonly entities: EntityQueries;
  private readonly fts: FtsCandidates;

  constructor(private readonly store: HolographicFactStore) {
    this.entities = new EntityQueries(store.db);
    this.fts = new FtsCandidates(store.db);
  }

  /** Hybrid search; best first. */
  search(query: string, options: FactSearchOptions = {}): ScoredFact[] {
    const limit = options.limit ?? 5;
    const candidates = this.fts.find(
      contentWords(query).slice(0, 16),
      limit * 3,
      options.minTrust ?? DEFAULT_MIN_TRUST,
      options.category,
    );
    if (candidates.length === 0) return [];
    const queryWords = new Set(contentWords(query));
    const queryVector = this.store.atoms.textVector(query);
    const best = Math.min(...candidates.map((c) => c.rank));
    const now = Date.now();
    const scored = candidates.map(({ fact, rank }) => {
      const fts = best < 0 ? rank / best : 1;
      const overlap = jaccard(queryWords, new Set(contentWords(fact.content)));
      const hrr =
        queryVector && fact.vector ? Math.max(0, similarity(queryVector, fact.vector)) : 0;
      const relevance =
        SEARCH_WEIGHTS.fts * fts + SEARCH_WEIGHTS.jaccard * overlap + SEARCH_WEIGHTS.hrr * hrr;
      const decay = options.halfLifeDays
        ? 0.5 ** ((now - fact.updatedAt) / (options.halfLifeDays * DAY_MS))
        : 1;
      return {
        ...fact,
        score: relevance * fact.trust * decay,
        relevance,
        parts: { fts, jaccard: overlap, hrr },
      };
    });
    return scored.sort((a, b) => b.score - a.score).slice(0, limit);
  }

  /** Facts about one entity, ranked by how strongly their vectors carry the entity's key. */
  probe(entity: string, options: { category?: string; limit?: number } = {}): ScoredFact[] {
    const key = this.store.atoms.entityKey(entity);
    return this.rankByKey(
      this.entities.factsOfEntities([entity], options.category),
      key,
      options.limit ?? 10,
    );
  }

  /** Entities that share facts with `entity`, most shared first. */
  related(entity: string, limit = 10): Array<{ entity: string; sharedFacts: number }> {
    return this.entities.coOccurring(entity, limit);
  }

  /**
   * Facts that connect all of `entities`: those linked to every one first, then those linked to
   * most, each ranked by similarity to the bundle of the entities' keys.
   */
  reason(entities: readonly string[], limit = 10): ScoredFact[] {
    const keys = entities.map((entity) => this.store.atoms.entityKey(entity));
    const facts = this.entities.factsOfEntities(entities);
    const scored = facts.map((fact) => {
      const linked = this.entities.linkedCount(fact.id, entities);
      const hrr = fact.vector
        ? keys.reduce(
            (sum, key) => sum + Math.max(0, similarity(fact.vector as PhaseVector, key)),
            0,
          ) / keys.length
        : 0;
      const relevance = linked / entities.length + hrr;
      return {
        ...fact,
        score: relevance * fact.trust,
        relevance,
        parts: { fts: 0, jaccard: linked / entities.length, hrr },
      };
    });
    return scored.sort((a, b) => b.score - a.score).slice(0, limit);
  }

  /**
   * Pairs of recent facts that share an entity but are worded very differently: candidates for
   * "these disagree". The model decides; nothing is changed.
   */
  contradict(
    options: { entity?: string; limit?: number; threshold?: number } = {},
  ): Contradiction[] {
    const facts = options.entity
      ? this.entities.factsOfEntities([options.entity])
      : this.entities.recentFactsWithEntities(300);
    const threshold = options.threshold ?? 0.7;
    const pairs: Contradiction[] = [];
    const entityLists = new Map(facts.map((f) => [f.id, this.entities.entitiesOf(f.id)]));
    for (let i = 0; i < facts.length; i++) {
      for (let j = i + 1; j < facts.length; j++) {
        const a = facts[i] as FactWithVector;
        const b = facts[j] as FactWithVector;
        const shared = (entityLists.get(a.id) ?? []).filter((e) =>
          (entityLists.get(b.id) ?? []).includes(e),
        );
        if (shared.length === 0) continue;
        const divergence =
          1 - jaccard(new Set(contentWords(a.content)), new Set(contentWords(b.content)));
        if (divergence >= threshold) pairs.push({ a, b, sharedEntities: shared, divergence });
      }
    }
    return pairs.sort((x, y) => y.divergence - x.divergence).slice(0, options.limit ?? 10);
  }

  private rankByKey(
    facts: readonly FactWithVector[],
    key: PhaseVector,
    limit: number,
  ): ScoredFact[] {
    return facts
      .map((fact) => {
        const hrr = fact.vector ? Math.max(0, similarity(fact.vector, key)) : 0;
        return {
          ...fact,
          score: hrr * fact.trust,
          relevance: hrr,
          parts: { fts: 0, jaccard: 0, hrr },
        };
      })
      .sort((a, b) => b.score - a.score)
      .slice(0, limit);
  }
}
