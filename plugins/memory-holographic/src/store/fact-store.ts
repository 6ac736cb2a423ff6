/** The SQLite store of the holographic memory: facts, entities, links, banks and FTS5. */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { HermesError } from '@hermes/plugin-sdk';
import Database from 'better-sqlite3';
import { AtomCache } from '../atom-cache.js';
import { blobToPhases, HRR_DIM, type PhaseVector, phasesToBlob } from '../hrr.js';
import { extractEntities } from '../text.js';
import { BankIndex, type MemoryBank } from './banks.js';
import { FACT_COLUMNS, type Fact, type FactRow, toFact } from './fact-row.js';
import { HOLOGRAPHIC_SCHEMA } from './schema.js';

/** Options of {@link HolographicFactStore}. */
export interface FactStoreOptions {
  /** The database file. */
  readonly path: string;
  /** Vector dimension. Default 1,024. */
  readonly dim?: number;
  /** Trust of a new fact. Default 0.5. */
  readonly defaultTrust?: number;
}

/** A new fact. */
export interface NewFact {
  readonly content: string;
  readonly category?: string;
  readonly tags?: readonly string[];
  readonly trust?: number;
}

/** Changes to a fact; `trustDelta` adds to the current trust. */
export interface FactChanges {
  readonly content?: string;
  readonly category?: string;
  readonly tags?: readonly string[];
  readonly trust?: number;
  readonly trustDelta?: number;
}

/** Trust moves by these steps on feedback: up slowly, down faster. */
export const HELPFUL_TRUST_STEP = 0.05;
export const UNHELPFUL_TRUST_STEP = 0.1;

const clampTrust = (trust: number) => Math.min(1, Math.max(0, trust));
const cleanTags = (tags: readonly string[] = []) =>
  tags
    .map((tag) => tag.trim().replace(/,/g, ' '))
    .filter((tag) => tag !== '')
    .join(',');

/**
 * Facts with trust scores, the entities they mention, each fact's phase vector, one bundled
 * vector per category, and a full-text index, all in one SQLite file (WAL mode). Content is
 * unique: adding the same text again returns the existing id.
 */
export class HolographicFactStore {
  readonly db: Database.Database;
  readonly atoms: AtomCache;
  private readonly banks: BankIndex;
  private readonly defaultTrust: number;
  private readonly statements = new Map<string, Database.Statement>();

  constructor(options: FactStoreOptions) {
    mkdirSync(dirname(options.path), { recursive: true });
    this.db = new Database(options.path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('foreign_keys = ON');
    this.db.exec(HOLOGRAPHIC_SCHEMA);
    this.atoms = new AtomCache(options.dim ?? HRR_DIM);
    this.banks = new BankIndex(this.db, this.atoms.dim);
    this.defaultTrust = options.defaultTrust ?? 0.5;
  }

  /** Adds a fact (or finds the identical one) and links its entities. */
  addFact(fact: NewFact): { id: number; created: boolean } {
    return this.db.transaction(() => {
      const added = this.insert(fact);
      if (added.created) this.banks.markDirty(added.category);
      return { id: added.id, created: added.created };
    })();
  }

  /** Adds many facts in one transaction (imports, benchmarks); returns their ids in order. */
  addFacts(facts: readonly NewFact[]): number[] {
    return this.db.transaction(() => {
      const added = facts.map((fact) => this.insert(fact));
      for (const category of new Set(added.filter((a) => a.created).map((a) => a.category))) {
        this.banks.markDirty(category);
      }
      return added.map((a) => a.id);
    })();
  }

  private insert(fact: NewFact): { id: number; created: boolean; category: string } {
    const content = fact.content.trim();
    if (content === '') {
      throw new HermesError('memory.invalid_fact', 'A fact needs non-empty content.');
    }
    const category = fact.category?.trim() || 'general';
    const existing = this.sql('SELECT id FROM facts WHERE content = ?').get(content) as
      | { id: number }
      | undefined;
    if (existing) return { id: existing.id, created: false, category };
    const entities = extractEntities(content);
    const now = Date.now();
    const vector = phasesToBlob(this.atoms.factVector(content, entities));
    const trust = clampTrust(fact.trust ?? this.defaultTrust);
    const { lastInsertRowid } = this.sql(
      'INSERT INTO facts (content, category, tags, trust_score, created_at, updated_at, hrr_vector) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ).run(content, category, cleanTags(fact.tags), trust, now, now, vector);
    const id = Number(lastInsertRowid);
    this.linkEntities(id, entities);
    return { id, created: true, category };
  }

  /** The fact with `id`, if any. */
  getFact(id: number): Fact | undefined {
    const row = this.sql(`SELECT ${FACT_COLUMNS} FROM facts WHERE id = ?`).get(id) as
      | FactRow
      | undefined;
    return row && toFact(row);
  }

  /** Applies `changes`; re-encodes the vector when the content changes. */
  updateFact(id: number, changes: FactChanges): Fact | undefined {
    return this.db.transaction(() => {
      const current = this.getFact(id);
      if (!current) return undefined;
      const content = changes.content?.trim() || current.content;
      const category = changes.category?.trim() || current.category;
      const trust = clampTrust(changes.trust ?? current.trust + (changes.trustDelta ?? 0));
      const tags = changes.tags ? cleanTags(changes.tags) : current.tags.join(',');
      const entities = extractEntities(content);
      this.sql(
        'UPDATE facts SET content = ?, category = ?, tags = ?, trust_score = ?, updated_at = ?, hrr_vector = ? WHERE id = ?',
      ).run(
        content,
        category,
        tags,
        trust,
        Date.now(),
        phasesToBlob(this.atoms.factVector(content, entities)),
        id,
      );
      if (content !== current.content) {
        this.sql('DELETE FROM fact_entities WHERE fact_id = ?').run(id);
        this.linkEntities(id, entities);
      }
      this.banks.markDirty(current.category);
      this.banks.markDirty(category);
      return this.getFact(id);
    })();
  }

  /** Deletes a fact; false when there was none. */
  removeFact(id: number): boolean {
    const fact = this.getFact(id);
    if (!fact) return false;
    this.sql('DELETE FROM facts WHERE id = ?').run(id);
    this.banks.markDirty(fact.category);
    return true;
  }

  /** The fact whose content is exactly `content`. */
  findByContent(content: string): Fact | undefined {
    const row = this.sql(`SELECT ${FACT_COLUMNS} FROM facts WHERE content = ?`).get(
      content.trim(),
    ) as FactRow | undefined;
    return row && toFact(row);
  }

  /** Facts by trust (highest first), optionally of one category and above a trust floor. */
  listFacts(options: { category?: string; minTrust?: number; limit?: number } = {}): Fact[] {
    const rows = this.sql(
      `SELECT ${FACT_COLUMNS} FROM facts WHERE (@category IS NULL OR category = @category) AND trust_score >= @minTrust ORDER BY trust_score DESC, id DESC LIMIT @limit`,
    ).all({
      category: options.category ?? null,
      minTrust: options.minTrust ?? 0,
      limit: options.limit ?? 20,
    }) as FactRow[];
    return rows.map(toFact);
  }

  /** Helpful feedback raises trust by 0.05, unhelpful lowers it by 0.10. */
  recordFeedback(id: number, helpful: boolean): Fact | undefined {
    const delta = helpful ? HELPFUL_TRUST_STEP : -UNHELPFUL_TRUST_STEP;
    const { changes } = this.sql(
      'UPDATE facts SET trust_score = MIN(1.0, MAX(0.0, trust_score + ?)), helpful_count = helpful_count + ?, updated_at = ? WHERE id = ?',
    ).run(delta, helpful ? 1 : 0, Date.now(), id);
    return changes > 0 ? this.getFact(id) : undefined;
  }

  /** Counts a retrieval of each fact. */
  markRetrieved(ids: readonly number[]): void {
    const statement = this.sql(
      'UPDATE facts SET retrieval_count = retrieval_count + 1 WHERE id = ?',
    );
    this.db.transaction(() => {
      for (const id of ids) statement.run(id);
    })();
  }

  /** The stored vector of a fact. */
  vectorOf(id: number): PhaseVector | undefined {
    const row = this.sql('SELECT hrr_vector FROM facts WHERE id = ?').get(id) as
      | { hrr_vector: Uint8Array | null }
      | undefined;
    return row?.hrr_vector ? blobToPhases(row.hrr_vector) : undefined;
  }

  /** The bundled vector of a category, rebuilt first if facts changed since. */
  bank(category: string): MemoryBank | undefined {
    return this.banks.get(category);
  }

  /** Re-encodes every fact (after changing the dimension) and marks every bank stale. */
  rebuildAllVectors(): number {
    const rows = this.sql('SELECT id, content FROM facts').all() as Array<{
      id: number;
      content: string;
    }>;
    const update = this.sql('UPDATE facts SET hrr_vector = ? WHERE id = ?');
    this.db.transaction(() => {
      for (const row of rows)
        update.run(
          phasesToBlob(this.atoms.factVector(row.content, extractEntities(row.content))),
          row.id,
        );
      this.sql('UPDATE memory_banks SET dirty = 1').run();
    })();
    return rows.length;
  }

  /** Closes the database. Safe to call twice. */
  close(): void {
    if (this.db.open) this.db.close();
  }

  /** A prepared statement, prepared once per SQL text. */
  private sql(text: string): Database.Statement {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  private linkEntities(factId: number, entities: readonly string[]): void {
    const upsert = this.sql(
      'INSERT INTO entities (name, created_at) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET name = excluded.name RETURNING id',
    );
    const link = this.sql('INSERT OR IGNORE INTO fact_entities (fact_id, entity_id) VALUES (?, ?)');
    for (const name of entities) {
      const { id } = upsert.get(name, Date.now()) as { id: number };
      link.run(factId, id);
    }
  }
}
