/**
 * @packageDocumentation
 * The ContextEngine seam of Hermes TS: the abstract class every context engine extends, the
 * compress options and result, and the host helpers that call an engine safely. The default
 * engine is `ContextCompressor` (name `compressor`). The contract suite lives in
 * `@hermes/context-engine/testing`.
 */
export * from './compression.js';
export * from './compressor/index.js';
export * from './context-engine.js';
export * from './engine-types.js';
export * from './host-helpers.js';
