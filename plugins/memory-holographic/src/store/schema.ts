/** The holographic memory's SQLite schema (one file, `HERMES_HOME/memory_store.db`). */

/** Tables, indexes, the FTS5 index and the triggers that keep it in step with `facts`. */
export const HOLOGRAPHIC_SCHEMA = `
CREATE TABLE IF NOT EXISTS facts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  content TEXT NOT NULL UNIQUE,
  category TEXT NOT NULL DEFAULT 'general',
  tags TEXT NOT NULL DEFAULT '',
  trust_score REAL NOT NULL DEFAULT 0.5,
  retrieval_count INTEGER NOT NULL DEFAULT 0,
  helpful_count INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  hrr_vector BLOB
);
CREATE TABLE IF NOT EXISTS entities (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  created_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS fact_entities (
  fact_id INTEGER NOT NULL REFERENCES facts(id) ON DELETE CASCADE,
  entity_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
  PRIMARY KEY (fact_id, entity_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS memory_banks (
  category TEXT PRIMARY KEY,
  vector BLOB,
  dim INTEGER NOT NULL,
  fact_count INTEGER NOT NULL DEFAULT 0,
  snr REAL,
  dirty INTEGER NOT NULL DEFAULT 1,
  updated_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS holographic_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS idx_facts_trust ON facts(trust_score DESC);
CREATE INDEX IF NOT EXISTS idx_facts_category ON facts(category);
CREATE INDEX IF NOT EXISTS idx_fact_entities_entity ON fact_entities(entity_id);
CREATE VIRTUAL TABLE IF NOT EXISTS facts_fts USING fts5(
  content, tags, content='facts', content_rowid='id', tokenize='unicode61 remove_diacritics 2'
);
CREATE VIRTUAL TABLE IF NOT EXISTS facts_fts_vocab USING fts5vocab(facts_fts, 'row');
CREATE TRIGGER IF NOT EXISTS facts_fts_insert AFTER INSERT ON facts BEGIN
  INSERT INTO facts_fts(rowid, content, tags) VALUES (new.id, new.content, new.tags);
END;
CREATE TRIGGER IF NOT EXISTS facts_fts_delete AFTER DELETE ON facts BEGIN
  INSERT INTO facts_fts(facts_fts, rowid, content, tags) VALUES ('delete', old.id, old.content, old.tags);
END;
CREATE TRIGGER IF NOT EXISTS facts_fts_update AFTER UPDATE OF content, tags ON facts BEGIN
  INSERT INTO facts_fts(facts_fts, rowid, content, tags) VALUES ('delete', old.id, old.content, old.tags);
  INSERT INTO facts_fts(rowid, content, tags) VALUES (new.id, new.content, new.tags);
END;
`;
