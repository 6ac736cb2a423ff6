/**
 * @packageDocumentation
 * The holographic memory plugin for Hermes TS: facts, entities and HRR phase vectors in SQLite
 * with FTS5, recalled by hybrid search, with a `fact_store` tool. Enable it with
 * `memory.provider: holographic`.
 */
import { definePlugin } from '@hermes/plugin-sdk';
import { HolographicMemoryProvider } from './provider.js';

export * from './atom-cache.js';
export * from './fact-store-tool.js';
export * from './hrr.js';
export * from './provider.js';
export * from './retrieval.js';
export type { MemoryBank } from './store/banks.js';
export type { Fact, FactWithVector } from './store/fact-row.js';
export * from './store/fact-store.js';
export { COMMON_WORD_DOCS, type FtsCandidate } from './store/fts-candidates.js';
export * from './text.js';

/** The plugin: registers one {@link HolographicMemoryProvider}, selectable as `holographic`. */
export default definePlugin({
  manifest: {
    name: '@hermes/plugin-memory-holographic',
    version: '0.0.0',
    description:
      'Holographic long-term memory: facts, entities and HRR vectors in SQLite with FTS5.',
    kind: 'memory',
  },
  register(ctx) {
    ctx.registerMemoryProvider(new HolographicMemoryProvider());
  },
});
