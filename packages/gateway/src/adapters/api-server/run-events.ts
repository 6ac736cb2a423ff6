/**
 * The event names of `GET /v1/runs/:id/events`, as Hermes' runs API spells them: `run.started`,
 * `message.delta`, `tool.started` / `tool.completed` / `tool.failed`, `approval.request`,
 * `approval.resolved`, `run.completed` / `run.failed` / `run.cancelled`, …
 */
import type { AgentEvent } from '@hermes/protocol';

/** One event of a run as its stream sends it. */
export interface RunEventFrame {
  readonly event: string;
  readonly data: Readonly<Record<string, unknown>>;
}

/** The run event for an agent event, or undefined for those a run does not report. */
export function runEventOf(event: AgentEvent): RunEventFrame | undefined {
  switch (event.type) {
    case 'turn_start':
      return { event: 'run.started', data: { session_id: event.sessionId } };
    case 'text_delta':
      return { event: 'message.delta', data: { delta: event.delta } };
    case 'tool_call_start':
      return {
        event: 'tool.started',
        data: { tool_call_id: event.toolCallId, tool: event.name, arguments: event.arguments },
      };
    case 'tool_call_progress':
      return {
        event: 'tool.progress',
        data: { tool_call_id: event.toolCallId, tool: event.name, message: event.message },
      };
    case 'tool_call_end':
      return {
        event:
          event.outcome === 'ok'
            ? 'tool.completed'
            : event.outcome === 'error'
              ? 'tool.failed'
              : 'tool.cancelled',
        data: {
          tool_call_id: event.toolCallId,
          tool: event.name,
          duration_ms: Math.round(event.durationMs),
          preview: event.preview,
        },
      };
    case 'approval_request':
      return {
        event: 'approval.request',
        data: { request_id: event.requestId, command: event.command, reason: event.reason },
      };
    case 'approval_resolution':
      return {
        event: 'approval.resolved',
        data: {
          request_id: event.requestId,
          decision: event.decision,
          decided_by: event.decidedBy,
        },
      };
    case 'compression_start':
      return { event: 'compression.started', data: { trigger: event.trigger } };
    case 'compression_end':
      return {
        event: 'compression.completed',
        data: { ok: event.ok, tokens_before: event.tokensBefore, tokens_after: event.tokensAfter },
      };
    case 'model_retry':
      return {
        event: 'model.retry',
        data: { attempt: event.attempt, delay_ms: event.delayMs, code: event.code },
      };
    case 'fallback_activated':
      return { event: 'model.fallback', data: { from: event.from, to: event.to } };
    case 'error':
      return {
        event: 'agent.error',
        data: { code: event.code, message: event.message, retryable: event.retryable },
      };
    default:
      return undefined;
  }
}
