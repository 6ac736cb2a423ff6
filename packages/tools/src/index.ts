/**
 * @packageDocumentation
 * The tools of Hermes TS: the registry, toolsets, argument coercion, error sanitizing and the
 * core tools.
 */

export * from './core/index.js';
export * from './definitions/check-cache.js';
export * from './definitions/definitions-request.js';
export * from './definitions/tool-definitions.js';
export * from './parallel/plan-batches.js';
export * from './parallel/safety.js';
export * from './registry/dispatch.js';
export * from './registry/hooks.js';
export * from './registry/loop-owned.js';
export * from './registry/name-repair.js';
export * from './registry/prepare-args.js';
export * from './registry/result-limits.js';
export * from './registry/sanitize-tool-error.js';
export * from './registry/tool-registry.js';
export * from './schema/coerce-args.js';
export * from './schema/json-schema-of.js';
export * from './schema/schema-kinds.js';
export * from './schema/schema-sanitizer.js';
export * from './tool-context.js';
export * from './tool-search/assemble.js';
export * from './tool-search/bridge-tools.js';
export * from './tool-search/catalog.js';
export * from './tool-spec.js';
export * from './toolsets/builtin-toolsets.js';
export * from './toolsets/toolset-catalog.js';
export * from './toolsets/toolset-errors.js';
export * from './web-search/index.js';
