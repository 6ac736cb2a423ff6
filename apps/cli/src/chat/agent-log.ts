/**
 * Writes what happens in a conversation to `HERMES_HOME/logs/agent.log` (errors also to
 * `errors.log`): turn ends with their exit reason and usage, failed tools, fallbacks and errors.
 * Never the conversation's text: logs are for diagnosis, and the logger redacts keys besides.
 */
import type { AgentEvent } from '@hermes/protocol';
import type { Logger } from '../logging/logger.js';
import type { EventSource } from './renderer.js';

/** Subscribes `log` to `source`'s events; returns the unsubscribe function. */
export function logAgentEvents(source: EventSource, log: Logger): () => void {
  return source.on('event', (event) => logEvent(event, log));
}

function logEvent(event: AgentEvent, log: Logger): void {
  switch (event.type) {
    case 'turn_end': {
      const fields = {
        session: event.sessionId,
        exitReason: event.exitReason,
        apiCalls: event.apiCalls,
        inputTokens: event.usage.inputTokens,
        outputTokens: event.usage.outputTokens,
        cacheReadTokens: event.usage.cacheReadTokens,
      };
      if (event.failed) log.error('turn failed', fields);
      else log.info('turn ended', fields);
      break;
    }
    case 'tool_call_end':
      if (event.outcome === 'error') {
        log.warn('tool failed', { tool: event.name, durationMs: Math.round(event.durationMs) });
      }
      break;
    case 'fallback_activated':
      log.warn('fallback activated', {
        from: `${event.from.provider}/${event.from.model}`,
        to: `${event.to.provider}/${event.to.model}`,
        reason: event.reason,
      });
      break;
    case 'approval_resolution':
      if (event.decidedBy === 'smart') {
        log.info('smart approval ruled', {
          decision: event.decision,
          command: event.command ?? '',
          reason: event.reason ?? '',
        });
      }
      break;
    case 'model_retry':
      log.warn('model call retried', {
        code: event.code,
        message: event.message,
        attempt: event.attempt,
        delayMs: event.delayMs,
      });
      break;
    case 'error':
      log.warn('agent error', {
        code: event.code,
        message: event.message,
        retryable: event.retryable,
      });
      break;
    default:
      break;
  }
}
