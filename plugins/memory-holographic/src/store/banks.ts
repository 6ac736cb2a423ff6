/**
 * Per-category memory banks: the bundle of every fact vector in a category. Rebuilding one costs
 * a pass over its facts, so writes only mark a bank stale and it is rebuilt when next read.
 */
import type Database from 'better-sqlite3';
import {
  addPhasors,
  blobToPhases,
  type PhaseVector,
  phasesToBlob,
  phasorAngles,
  snrEstimate,
} from '../hrr.js';

/** A category's bundled vector and how reliable recall from it is. */
export interface MemoryBank {
  readonly category: string;
  readonly vector: PhaseVector;
  readonly factCount: number;
  /** √(dim / facts): below about 2, unbinding from this bank is mostly noise. */
  readonly snr: number;
}

/** Reads, marks and rebuilds the `memory_banks` rows. */
export class BankIndex {
  constructor(
    private readonly db: Database.Database,
    private readonly dim: number,
  ) {}

  /** Marks a category's bank stale. */
  markDirty(category: string): void {
    this.db
      .prepare(
        'INSERT INTO memory_banks (category, dim, dirty, updated_at) VALUES (?, ?, 1, ?) ON CONFLICT(category) DO UPDATE SET dirty = 1',
      )
      .run(category, this.dim, Date.now());
  }

  /** The bank of `category`, rebuilt if stale; `undefined` for a category without facts. */
  get(category: string): MemoryBank | undefined {
    const row = this.db
      .prepare('SELECT vector, fact_count, dirty FROM memory_banks WHERE category = ?')
      .get(category) as
      | { vector: Uint8Array | null; fact_count: number; dirty: number }
      | undefined;
    if (!row) return undefined;
    if (row.dirty === 0 && row.vector) {
      const factCount = row.fact_count;
      return {
        category,
        vector: blobToPhases(row.vector),
        factCount,
        snr: snrEstimate(this.dim, factCount),
      };
    }
    return this.rebuild(category);
  }

  private rebuild(category: string): MemoryBank | undefined {
    const re = new Float64Array(this.dim);
    const im = new Float64Array(this.dim);
    let factCount = 0;
    const rows = this.db
      .prepare('SELECT hrr_vector FROM facts WHERE category = ? AND hrr_vector IS NOT NULL')
      .iterate(category) as IterableIterator<{ hrr_vector: Uint8Array }>;
    for (const row of rows) {
      addPhasors(re, im, blobToPhases(row.hrr_vector), 1);
      factCount += 1;
    }
    const snr = snrEstimate(this.dim, factCount);
    if (factCount === 0) {
      this.db.prepare('DELETE FROM memory_banks WHERE category = ?').run(category);
      return undefined;
    }
    const vector = phasorAngles(re, im);
    this.db
      .prepare(
        'UPDATE memory_banks SET vector = ?, fact_count = ?, snr = ?, dirty = 0, updated_at = ? WHERE category = ?',
      )
      .run(
        phasesToBlob(vector),
        factCount,
        Number.isFinite(snr) ? snr : null,
        Date.now(),
        category,
      );
    return { category, vector, factCount, snr };
  }
}
