/** A stored fact as the store hands it out. */
import { blobToPhases, type PhaseVector } from '../hrr.js';

/** One fact. `trust` is in [0, 1]; new facts start at 0.5. */
export interface Fact {
  readonly id: number;
  readonly content: string;
  readonly category: string;
  readonly tags: readonly string[];
  readonly trust: number;
  readonly retrievalCount: number;
  readonly helpfulCount: number;
  /** Epoch milliseconds. */
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** A fact with its phase vector, for re-ranking. */
export interface FactWithVector extends Fact {
  readonly vector: PhaseVector | undefined;
}

/** The columns of `facts` as SQLite returns them. */
export interface FactRow {
  id: number;
  content: string;
  category: string;
  tags: string;
  trust_score: number;
  retrieval_count: number;
  helpful_count: number;
  created_at: number;
  updated_at: number;
  hrr_vector?: Uint8Array | null;
}

/** Every column but the vector. */
export const FACT_COLUMNS =
  'id, content, category, tags, trust_score, retrieval_count, helpful_count, created_at, updated_at';

/** Turns a row into a {@link Fact}. */
export function toFact(row: FactRow): Fact {
  return {
    id: row.id,
    content: row.content,
    category: row.category,
    tags: row.tags === '' ? [] : row.tags.split(','),
    trust: row.trust_score,
    retrievalCount: row.retrieval_count,
    helpfulCount: row.helpful_count,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Turns a row that selected `hrr_vector` into a {@link FactWithVector}. */
export function toFactWithVector(row: FactRow): FactWithVector {
  return { ...toFact(row), vector: row.hrr_vector ? blobToPhases(row.hrr_vector) : undefined };
}
