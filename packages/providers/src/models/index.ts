/** Model metadata: context windows and output limits, overridable from config. */
export * from './model-id.js';
export * from './model-limits.js';
export * from './model-table.js';
