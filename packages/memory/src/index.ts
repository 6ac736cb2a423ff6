/**
 * @packageDocumentation
 * Long-term memory for Hermes TS: the `MemoryProvider` seam every external memory extends, the
 * `MemoryManager` that drives one provider through a session, and the built-in MEMORY.md /
 * USER.md store with its `memory` tool and frozen system-prompt snapshot. The contract suite
 * lives in `@hermes/memory/testing`.
 */
export * from './builtin/entries.js';
export * from './builtin/file-lock.js';
export * from './builtin/memory-files.js';
export * from './builtin/memory-store.js';
export * from './builtin/memory-tool.js';
export * from './builtin/operations.js';
export * from './builtin/snapshot.js';
export * from './builtin/threat-scan.js';
export * from './builtin/write-result.js';
export * from './manager/bounded-call.js';
export * from './manager/manager-types.js';
export * from './manager/memory-context.js';
export * from './manager/memory-manager.js';
export * from './manager/select-provider.js';
export * from './manager/trivial-prompt.js';
export * from './memory-provider.js';
export * from './memory-types.js';
