/**
 * @packageDocumentation
 * The tools of Hermes TS: the registry, toolsets, argument coercion, error sanitizing and the
 * core tools.
 */
export * from './tool-context.js';
export * from './tool-spec.js';
