/**
 * The core tools of Hermes TS, each a {@link ToolSpec} with a zod schema, plus the helpers they
 * are built from (the fuzzy matcher, the HTML reader, the unified-diff planner).
 */
export * from './clarify.js';
export * from './command-gate.js';
export * from './core-tools.js';
export * from './errors.js';
export * from './execute-code.js';
export * from './file-access.js';
export * from './fuzzy-match.js';
export { MATCH_STRATEGIES, type MatchStrategy } from './fuzzy-strategies.js';
export { htmlToReadable, type ReadablePage } from './html-to-markdown.js';
export * from './loop-owned.js';
export * from './media.js';
export * from './patch.js';
export * from './process.js';
export * from './process-table.js';
export * from './read-file.js';
export * from './search-files.js';
export * from './terminal.js';
export * from './todo.js';
export { diffPaths, type FileChange, planUnifiedDiff, renderDiff } from './unified-diff.js';
export { assertFetchableUrl, isPrivateAddress } from './url-safety.js';
export * from './web-extract.js';
export * from './web-search.js';
export * from './write-file.js';
