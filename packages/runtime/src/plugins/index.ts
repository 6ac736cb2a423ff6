/**
 * The plugin host: discovery, selection, loading with the SDK resolved to the host's copy, the
 * PluginContext, the registries, and the hook runner the agent loop calls.
 */
export * from './discover.js';
export * from './hook-runner.js';
export * from './host-logger.js';
export * from './load-plugins.js';
export * from './plugin-names.js';
export * from './plugin-status.js';
export * from './plugins-section.js';
export type {
  ContextEngineMaker,
  MemoryProviderMaker,
  RegisteredHook,
  RegisteredPluginTool,
} from './registrations.js';
export type { StrategySelection } from './selection.js';
