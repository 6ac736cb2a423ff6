/**
 * @packageDocumentation
 * Everything a Hermes TS plugin imports: {@link definePlugin} and the {@link PluginContext} it
 * registers through, the seven seams (ModelProvider, SessionStore, ContextEngine,
 * MemoryProvider, ApprovalHandler, ExecutionEnvironment, PlatformAdapter) with their types, and
 * the shared protocol vocabulary (messages, events, HermesError). Plugins import nothing of ours
 * but this package; contract suites are in `@hermes/plugin-sdk/testing`.
 */
export * from '@hermes/approval';
export * from '@hermes/context-engine';
export * from '@hermes/environments';
export * from '@hermes/gateway';
export * from '@hermes/memory';
export * from '@hermes/protocol';
export * from '@hermes/providers';
// Several packages export helpers under the same name; these explicit exports say which one a
// plugin gets (explicit exports win over `export *`).
export { REDACTED, redactSecrets } from '@hermes/providers';
export type { SearchOptions } from '@hermes/state';
export * from '@hermes/state';
export * from './define-plugin.js';
export * from './hooks.js';
export * from './manifest.js';
export * from './plugin-context.js';
export * from './version.js';
