/**
 * Redaction for sinks the gateway does not render itself (an HTTP client's stream). The seam
 * promises events "already redacted where they carry text for people": tool arguments, progress
 * lines, previews, approval commands and error messages are. Streamed answer deltas pass as
 * produced: a secret can straddle two deltas, so piecewise redaction would both miss it and leave
 * half a marker; the outcome's whole text is redacted instead.
 */
import type { AgentEvent } from '@hermes/protocol';
import { redactCommand, redactForChat } from '../delivery/redact-for-chat.js';
import type { TurnSink } from '../turn-sink.js';

/** `event` with its people-facing text fields redacted. */
export function redactEvent(event: AgentEvent): AgentEvent {
  switch (event.type) {
    case 'tool_call_start':
      return { ...event, arguments: redactForChat(event.arguments) };
    case 'tool_call_progress':
      return { ...event, message: redactForChat(event.message) };
    case 'tool_call_end':
      return { ...event, preview: redactForChat(event.preview) };
    case 'approval_request':
      return {
        ...event,
        command: redactCommand(event.command),
        reason: redactForChat(event.reason),
      };
    case 'approval_resolution':
      return {
        ...event,
        ...(event.command === undefined ? {} : { command: redactCommand(event.command) }),
        ...(event.reason === undefined ? {} : { reason: redactForChat(event.reason) }),
      };
    case 'error':
      return { ...event, message: redactForChat(event.message) };
    case 'compression_end':
      return event.error === undefined ? event : { ...event, error: redactForChat(event.error) };
    default:
      return event;
  }
}

/** Wraps `sink` so events and notices reach it redacted. */
export function redactingSink(sink: TurnSink): TurnSink {
  return {
    event: (event) => sink.event(redactEvent(event)),
    notice: (text) => sink.notice(redactForChat(text)),
    finish: (outcome) => sink.finish({ ...outcome, text: redactForChat(outcome.text) }),
    fail: (error) => sink.fail({ code: error.code, message: redactForChat(error.message) }),
  };
}
