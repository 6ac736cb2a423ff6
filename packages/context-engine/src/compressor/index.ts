/** The default engine and its building blocks. */

export * from './compression-run.js';
export * from './context-compressor.js';
export * from './failure-guard.js';
export * from './options.js';
export * from './proactive-prune.js';
export * from './prune.js';
export * from './redact.js';
export * from './regions.js';
export * from './summarizer.js';
export * from './summary-sections.js';
export * from './summary-template.js';
export * from './thresholds.js';
export * from './token-estimate.js';
export * from './tool-groups.js';
export * from './tool-result-line.js';
export * from './truncate-arguments.js';
export * from './warnings.js';
