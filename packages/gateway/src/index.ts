/**
 * @packageDocumentation
 * The gateway's platform seam: the {@link PlatformAdapter} abstract class, the normalized
 * inbound and outbound message types, platform capabilities, and {@link splitText} for fitting
 * long replies into a platform's limit. The message pipeline, routing, sessions and delivery
 * ledger arrive with the gateway issue.
 */
export * from './agents/agent-factory.js';
export * from './capabilities.js';
export * from './lane/session-lane.js';
export * from './messages.js';
export * from './platform-adapter.js';
export * from './settings/gateway-settings.js';
export * from './settings/platform-settings.js';
export * from './split-text.js';
export * from './store/gateway-store.js';
export * from './turn-sink.js';
export * from './adapters/api-server/adapter-log.js';
export * from './adapters/api-server/api-server-adapter.js';
export * from './adapters/api-server/api-server-settings.js';
