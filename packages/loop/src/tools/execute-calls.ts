/**
 * Runs one response's tool calls in the batches the toolbox plans: parallel batches run together
 * (at most {@link MAX_PARALLEL_CALLS} at a time), sequential ones in order. Every call ends with exactly one tool message — a skipped call gets a `cancelled`
 * result — and the messages are appended in the order the model made the calls.
 */
import type { ToolCall, ToolMessage } from '@hermes/protocol';
import type { ToolContext } from '@hermes/tools';
import type { Toolbox, ToolCallResult } from './toolbox.js';
import type { CallValidation, ValidCall } from './validate-calls.js';

/** Most calls that run at the same time. */
export const MAX_PARALLEL_CALLS = 8;

/** The result given to a call that was skipped because of an interrupt. */
export const CANCELLED_TEXT =
  '[Cancelled: the user interrupted the turn before this tool finished.]';

/** What the executor needs from the turn. */
export interface ExecuteCallsInput {
  readonly validation: CallValidation;
  readonly toolbox: Toolbox;
  readonly signal: AbortSignal;
  readonly contextFor: (call: ToolCall) => ToolContext;
  readonly onStart: (call: ValidCall) => void;
  readonly onEnd: (call: ToolCall, name: string, result: ToolCallResult) => void;
}

/** One finished call. */
export interface ExecutedCall {
  readonly call: ToolCall;
  readonly name: string;
  readonly result: ToolCallResult;
  readonly message: ToolMessage;
}

/** Runs the calls; resolves with one result per kept call, in call order. */
export async function executeToolCalls(input: ExecuteCallsInput): Promise<ExecutedCall[]> {
  const done = new Map<string, ExecutedCall>();
  for (const rejected of input.validation.rejected) {
    const result = { content: rejected.message, status: 'error' as const, durationMs: 0 };
    done.set(rejected.call.id, finish(rejected.call, rejected.call.function.name, result));
    input.onEnd(rejected.call, rejected.call.function.name, result);
  }
  const planned = input.validation.valid.map((v) => ({ ...v, id: v.call.id }));
  for (const batch of input.toolbox.plan(planned)) {
    if (batch.mode === 'parallel') {
      for (const chunk of chunks(batch.calls, MAX_PARALLEL_CALLS)) {
        const results = await Promise.all(chunk.map((call) => runOne(call, input)));
        for (const executed of results) done.set(executed.call.id, executed);
      }
    } else {
      for (const call of batch.calls) {
        const executed = await runOne(call, input);
        done.set(executed.call.id, executed);
      }
    }
  }
  return input.validation.kept.flatMap((call) => {
    const executed = done.get(call.id);
    return executed ? [executed] : [];
  });
}

async function runOne(valid: ValidCall, input: ExecuteCallsInput): Promise<ExecutedCall> {
  if (input.signal.aborted) {
    const result = { content: CANCELLED_TEXT, status: 'cancelled' as const, durationMs: 0 };
    input.onEnd(valid.call, valid.name, result);
    return finish(valid.call, valid.name, result);
  }
  input.onStart(valid);
  const started = performance.now();
  let result: ToolCallResult;
  try {
    result = await input.toolbox.dispatch(valid.name, valid.args, input.contextFor(valid.call));
  } catch (error) {
    // Dispatch promises never to throw; a toolbox that does must not break the turn.
    const reason = error instanceof Error ? error.message : String(error);
    result = { content: `[TOOL_ERROR] ${reason}`, status: 'error', durationMs: 0 };
  }
  if (input.signal.aborted && result.status !== 'cancelled') {
    result = {
      content: `${result.content}\n${CANCELLED_TEXT}`.trim(),
      status: 'cancelled',
      durationMs: result.durationMs,
    };
  }
  const timed = { ...result, durationMs: result.durationMs || performance.now() - started };
  input.onEnd(valid.call, valid.name, timed);
  return finish(valid.call, valid.name, timed);
}

function finish(call: ToolCall, name: string, result: ToolCallResult): ExecutedCall {
  const message: ToolMessage = {
    role: 'tool',
    tool_call_id: call.id,
    name,
    content: toolMessageContent(result),
  };
  return { call, name, result, message };
}

/** The text, then any images as `data:` URL parts (a cancelled call keeps only its text). */
function toolMessageContent(result: ToolCallResult): ToolMessage['content'] {
  const images = result.status === 'cancelled' ? [] : (result.images ?? []);
  if (images.length === 0) return result.content;
  return [
    { type: 'text', text: result.content },
    ...images.map((image) => ({
      type: 'image_url' as const,
      image_url: { url: `data:${image.mimeType};base64,${image.data}` },
    })),
  ];
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
