/**
 * @packageDocumentation
 * The SessionStore seam of Hermes TS: the abstract class every session store extends and the
 * records it reads and writes (sessions, messages, search hits, compaction, export), and its SQLite
 * implementation (`openSessionStore`). The contract suite lives in `@hermes/state/testing`.
 */
export * from './compaction.js';
export * from './errors.js';
export * from './search.js';
export * from './session-export.js';
export * from './session-record.js';
export * from './session-store.js';
export * from './sqlite/index.js';
export * from './stored-message.js';
