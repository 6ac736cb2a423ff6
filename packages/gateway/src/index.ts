/**
 * @packageDocumentation
 * The long-running gateway: the {@link PlatformAdapter} seam and its message types, the
 * {@link Gateway} that runs every inbound message through the pipeline (authorize and pair,
 * slash commands, busy policy, session key and reset, hygiene, the turn on a per-session lane,
 * delivery with a ledger), the agent cache, the SQLite gateway store, approval in chat, and two
 * adapters: {@link ApiServerAdapter} (OpenAI-compatible HTTP) and {@link WebhookAdapter}.
 */

export * from './adapters/api-server/adapter-log.js';
export * from './adapters/api-server/api-server-adapter.js';
export * from './adapters/api-server/api-server-settings.js';
export * from './adapters/api-server/jobs-api.js';
export * from './adapters/webhook/prompt-template.js';
export * from './adapters/webhook/signature.js';
export * from './adapters/webhook/webhook-adapter.js';
export * from './adapters/webhook/webhook-settings.js';
export * from './agents/agent-cache.js';
export * from './agents/agent-factory.js';
export * from './approval/chat-approval-handler.js';
export * from './approval/parse-approval-answer.js';
export * from './capabilities.js';
export * from './connection-state.js';
export * from './delivery/chat-delivery.js';
export * from './delivery/dead-target.js';
export { DEFAULT_DELIVERY_RETRY, type DeliveryRetryPolicy } from './delivery/deliver-parts.js';
export * from './delivery/deliver-text.js';
export * from './delivery/provider-error-sentence.js';
export * from './delivery/redact-for-chat.js';
export * from './delivery/resend-pending.js';
export { SYSTEM_TIMERS, type Timers } from './delivery/timers.js';
export * from './gateway.js';
export * from './health.js';
export * from './hygiene/hygiene-gate.js';
export * from './lane/in-process-lane.js';
export * from './lane/session-lane.js';
export * from './log.js';
export * from './messages.js';
export * from './pairing/pairing-code.js';
export * from './pairing/pairing-store.js';
export type {
  CommandCall,
  CommandHost,
  SlashCommand,
} from './pipeline/commands/command-host.js';
export { SLASH_COMMANDS } from './pipeline/commands/command-table.js';
export * from './pipeline/notices.js';
export * from './platform-adapter.js';
export * from './restart/restart-guard.js';
export * from './session/reset-policy.js';
export * from './session/session-directory.js';
export * from './session/session-key.js';
export * from './settings/gateway-settings.js';
export * from './settings/platform-settings.js';
export * from './split-text.js';
export * from './store/gateway-store.js';
export * from './store/sqlite-gateway-store.js';
export * from './turn-sink.js';
