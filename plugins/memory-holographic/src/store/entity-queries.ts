/** Read queries over facts, entities and their links, prepared once per database handle. */
import type Database from 'better-sqlite3';
import { FACT_COLUMNS, type FactRow, type FactWithVector, toFactWithVector } from './fact-row.js';

/** Every fact column of `f`, with the vector. */
export const WITH_VECTOR = `${FACT_COLUMNS.split(', ')
  .map((c) => `f.${c}`)
  .join(', ')}, f.hrr_vector`;

/** The queries retrieval needs. */
export class EntityQueries {
  constructor(private readonly db: Database.Database) {}

  /** Facts linked to any of `entities` (names matched case-insensitively), newest first, max 500. */
  factsOfEntities(entities: readonly string[], category?: string): FactWithVector[] {
    if (entities.length === 0) return [];
    const names = entities.map((e) => e.trim().toLowerCase());
    const marks = names.map(() => '?').join(', ');
    const rows = this.db
      .prepare(
        `SELECT DISTINCT ${WITH_VECTOR} FROM facts f
         JOIN fact_entities fe ON fe.fact_id = f.id JOIN entities e ON e.id = fe.entity_id
         WHERE e.name IN (${marks}) AND (? IS NULL OR f.category = ?)
         ORDER BY f.id DESC LIMIT 500`,
      )
      .all(...names, category ?? null, category ?? null) as FactRow[];
    return rows.map(toFactWithVector);
  }

  /** How many of `entities` the fact is linked to. */
  linkedCount(factId: number, entities: readonly string[]): number {
    const linked = new Set(this.entitiesOf(factId));
    return entities.filter((e) => linked.has(e.trim().toLowerCase())).length;
  }

  /** The entity names linked to a fact. */
  entitiesOf(factId: number): string[] {
    const rows = this.db
      .prepare(
        'SELECT e.name FROM fact_entities fe JOIN entities e ON e.id = fe.entity_id WHERE fe.fact_id = ? ORDER BY e.name',
      )
      .all(factId) as Array<{ name: string }>;
    return rows.map((row) => row.name);
  }

  /** Entities sharing facts with `entity`, most shared first. */
  coOccurring(entity: string, limit: number): Array<{ entity: string; sharedFacts: number }> {
    const rows = this.db
      .prepare(
        `SELECT e2.name AS entity, COUNT(*) AS sharedFacts FROM entities e1
         JOIN fact_entities a ON a.entity_id = e1.id
         JOIN fact_entities b ON b.fact_id = a.fact_id AND b.entity_id != a.entity_id
         JOIN entities e2 ON e2.id = b.entity_id
         WHERE e1.name = ? GROUP BY e2.name ORDER BY sharedFacts DESC, e2.name LIMIT ?`,
      )
      .all(entity.trim().toLowerCase(), limit) as Array<{ entity: string; sharedFacts: number }>;
    return rows;
  }

  /** The most recent facts that mention at least one entity. */
  recentFactsWithEntities(limit: number): FactWithVector[] {
    const rows = this.db
      .prepare(
        `SELECT ${WITH_VECTOR} FROM facts f WHERE EXISTS (SELECT 1 FROM fact_entities fe WHERE fe.fact_id = f.id) ORDER BY f.id DESC LIMIT ?`,
      )
      .all(limit) as FactRow[];
    return rows.map(toFactWithVector);
  }
}
