/**
 * The compression gate an agent builds for each turn (and for a manual `/compress`): the
 * runtime's engine and automatic-compression switch, the memory provider's say before a
 * compression, and the `compression_start` / `compression_end` events.
 */
import type { SessionWriter } from '../persist/session-writer.js';
import type { AgentRuntime } from '../turn/agent-runtime.js';
import { CompressionGate, type CompressionHooks } from './compression-gate.js';

/** A gate for `writer`'s session; `turn.id` is read when an event is emitted. */
export function turnGate(
  runtime: AgentRuntime,
  writer: SessionWriter,
  turn: { readonly id: string },
): CompressionGate {
  const { events, memory } = runtime;
  const beforeCompress = memory?.onPreCompress?.bind(memory);
  const hooks: CompressionHooks = {
    ...(beforeCompress ? { beforeCompress } : {}),
    onStart: (trigger, tokens, count) =>
      events.emit({
        type: 'compression_start',
        turnId: turn.id,
        trigger,
        tokensBefore: tokens,
        messagesBefore: count,
      }),
    onEnd: (report) => {
      events.emit({
        type: 'compression_end',
        turnId: turn.id,
        ok: report.ok,
        tokensBefore: report.tokensBefore,
        tokensAfter: report.tokensAfter,
        messagesBefore: report.messagesBefore,
        messagesAfter: report.messagesAfter,
        ...(report.error ? { error: report.error } : {}),
        ...(report.warnings ? { warnings: [...report.warnings] } : {}),
      });
    },
  };
  return new CompressionGate(runtime.engine, writer, hooks, runtime.autoCompression);
}
