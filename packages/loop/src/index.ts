/**
 * @packageDocumentation
 * The agent loop of Hermes TS: {@link Agent} runs turns — prologue, iterations of model call and
 * tools, finalize — against injected seams (provider, session store, context engine, tools,
 * environment, approval, memory), persisting every message before acting on it.
 */
export * from './agent.js';
export * from './agent-options.js';
export * from './auxiliary/auxiliary-models.js';
export * from './auxiliary/auxiliary-slots.js';
export * from './auxiliary/auxiliary-usage.js';
export * from './auxiliary/side-tasks.js';
export * from './checkpoints/checkpoint-config.js';
export type { Checkpoint, RollbackResult } from './checkpoints/checkpoint-store.js';
export type { CheckpointHandle } from './checkpoints/checkpoint-wiring.js';
export { isFileChangingCall, isReadOnlyCommand } from './checkpoints/classify-call.js';
export type { CompressionReport } from './compression/compression-gate.js';
export * from './delegation/delegate-tool.js';
export * from './delegation/delegation-options.js';
export * from './events/event-bus.js';
export * from './hooks/agent-hooks.js';
export * from './hooks/guard-hooks.js';
export * from './hooks/hooked-toolbox.js';
export * from './learning/learning-config.js';
export * from './learning/learning-wiring.js';
export * from './model/model-route.js';
export * from './model/pricing.js';
export * from './persist/persistence-failure.js';
export * from './persist/session-writer.js';
export * from './prompt/context-files.js';
export * from './prompt/system-prompt.js';
export * from './request/repair-messages.js';
export * from './tools/execute-calls.js';
export * from './tools/guardrails.js';
export * from './tools/loop-toolbox.js';
export * from './tools/registry-toolbox.js';
export * from './tools/toolbox.js';
export * from './tools/validate-calls.js';
export * from './turn/context-status.js';
export * from './turn/exit-words.js';
export * from './turn/inject-signals.js';
export * from './turn/iteration-budget.js';
export * from './turn/resume.js';
export * from './turn/sanitize-input.js';
export * from './turn/turn-memory.js';
export * from './turn/turn-result.js';
export * from './wiring/approval-hooks.js';
export * from './wiring/create-agent.js';
export * from './wiring/create-agent-config.js';
export * from './wiring/shared-components.js';
export * from './wiring/summarizer.js';
