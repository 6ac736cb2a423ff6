/**
 * @packageDocumentation
 * The MemoryProvider seam of Hermes TS: the abstract class every external memory backend extends
 * and the events it receives. The memory manager, the MEMORY.md / USER.md store and the `memory`
 * tool arrive with issue 9. The contract suite lives in `@hermes/memory/testing`.
 */
export * from './memory-provider.js';
export * from './memory-types.js';
