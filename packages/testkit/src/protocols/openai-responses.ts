/**
 * The OpenAI Responses API (`POST /v1/responses`): a scripted turn as a `Response` object or as
 * the typed event stream (`response.created` … `response.completed`), each event with an `event:`
 * name equal to its `type` and a running `sequence_number`, as the real service sends them. The
 * stream has no `[DONE]` terminator: the Responses API ends after its last event.
 */
import type { ScriptTurn, ScriptUsage } from '../script.js';
import type { EncodeContext, ProtocolEncoder, SseFrame } from './encoder.js';
import { openaiChatEncoder } from './openai-chat.js';
import {
  argumentsText,
  finishReasonOf,
  generatedId,
  resolveChunking,
  resolveUsage,
  splitText,
} from './turn-parts.js';

interface SummaryPart {
  type: 'summary_text';
  text: string;
}
interface ReasoningItem {
  type: 'reasoning';
  id: string;
  summary: SummaryPart[];
}
interface OutputText {
  type: 'output_text';
  text: string;
  annotations: never[];
  logprobs: never[];
}
interface MessageItem {
  type: 'message';
  id: string;
  status: ItemStatus;
  role: 'assistant';
  content: OutputText[];
}
interface FunctionCallItem {
  type: 'function_call';
  id: string;
  call_id: string;
  name: string;
  arguments: string;
  status: ItemStatus;
}
type ItemStatus = 'in_progress' | 'completed' | 'incomplete';
type OutputItem = ReasoningItem | MessageItem | FunctionCallItem;

/** Everything both the JSON and the stream form are derived from, so the two always agree. */
interface Plan {
  readonly turn: ScriptTurn;
  readonly context: EncodeContext;
  readonly status: 'completed' | 'incomplete';
  readonly items: OutputItem[];
}

type Emit = (type: string, fields: Record<string, unknown>) => void;

/** The output items in the order the real service emits them: reasoning, message, calls. */
function outputItems(turn: ScriptTurn, context: EncodeContext): OutputItem[] {
  const responseId = context.responseId;
  const items: OutputItem[] = [];
  if (turn.reasoning !== undefined) {
    const summary: SummaryPart[] = [{ type: 'summary_text', text: turn.reasoning }];
    items.push({ type: 'reasoning', id: `rs_${responseId}`, summary });
  }
  // A turn with nothing else still answers with an (empty) message, never an empty output.
  if (turn.text !== undefined || (turn.toolCalls.length === 0 && turn.reasoning === undefined)) {
    const text: OutputText = {
      type: 'output_text',
      text: turn.text ?? '',
      annotations: [],
      logprobs: [],
    };
    items.push({
      type: 'message',
      id: `msg_${responseId}`,
      status: 'completed',
      role: 'assistant',
      content: [text],
    });
  }
  turn.toolCalls.forEach((call, index) => {
    items.push({
      type: 'function_call',
      id: generatedId('fc_', context, index),
      call_id: call.id ?? generatedId('call_', context, index),
      name: call.name,
      arguments: argumentsText(call),
      status: 'completed',
    });
  });
  return items;
}

/** Reads the turn once into the items and final status both forms are built from. */
function planOf(turn: ScriptTurn, context: EncodeContext): Plan {
  const reason = finishReasonOf(turn);
  const status = reason === 'length' || reason === 'content_filter' ? 'incomplete' : 'completed';
  const items = outputItems(turn, context);
  // A cut-off answer leaves the item being generated at that moment unfinished.
  const last = items.at(-1);
  if (status === 'incomplete' && last !== undefined && last.type !== 'reasoning') {
    last.status = 'incomplete';
  }
  return { turn, context, status, items };
}

/** Maps script usage (fresh input excluding cache) to the Responses usage block. */
function usageBlock(usage: ScriptUsage): Record<string, unknown> {
  // OpenAI's input_tokens is the whole prompt; cached and written tokens are parts of it.
  const input = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
  return {
    input_tokens: input,
    input_tokens_details: {
      cached_tokens: usage.cacheReadTokens,
      cache_write_tokens: usage.cacheWriteTokens,
    },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens },
    total_tokens: input + usage.outputTokens,
  };
}

/**
 * The `Response` object. `final` false gives the in-progress snapshot that `response.created`
 * carries (no output, no usage). `output_text` is left out: the SDK computes it client-side.
 */
function responseObject(plan: Plan, final: boolean): Record<string, unknown> {
  const { turn, context } = plan;
  const incomplete = final && plan.status === 'incomplete';
  const reason = finishReasonOf(turn) === 'length' ? 'max_output_tokens' : 'content_filter';
  return {
    id: `resp_${context.responseId}`,
    object: 'response',
    created_at: context.created,
    status: final ? plan.status : 'in_progress',
    background: false,
    completed_at: final && !incomplete ? context.created : null,
    error: null,
    incomplete_details: incomplete ? { reason } : null,
    instructions: null,
    max_output_tokens: null,
    metadata: {},
    model: turn.model ?? context.model,
    output: final ? plan.items : [],
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    service_tier: 'default',
    store: true,
    temperature: 1,
    text: { format: { type: 'text' } },
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
    truncation: 'disabled',
    usage: final ? usageBlock(resolveUsage(turn)) : null,
  };
}

/** A reasoning item: one summary part whose text arrives in deltas. */
function streamReasoning(emit: Emit, item: ReasoningItem, index: number, size: number): void {
  const at = { item_id: item.id, output_index: index, summary_index: 0 };
  const text = item.summary[0]?.text ?? '';
  emit('response.output_item.added', { output_index: index, item: { ...item, summary: [] } });
  emit('response.reasoning_summary_part.added', {
    ...at,
    part: { type: 'summary_text', text: '' },
  });
  for (const delta of splitText(text, size)) {
    emit('response.reasoning_summary_text.delta', { ...at, delta });
  }
  emit('response.reasoning_summary_text.done', { ...at, text });
  emit('response.reasoning_summary_part.done', { ...at, part: { type: 'summary_text', text } });
  emit('response.output_item.done', { output_index: index, item });
}

/** A message item: one output_text part whose text arrives in deltas. */
function streamMessage(emit: Emit, item: MessageItem, index: number, size: number): void {
  const at = { item_id: item.id, output_index: index, content_index: 0 };
  const part = item.content[0] ?? { type: 'output_text', text: '', annotations: [], logprobs: [] };
  const started = { ...item, status: 'in_progress', content: [] };
  emit('response.output_item.added', { output_index: index, item: started });
  emit('response.content_part.added', { ...at, part: { ...part, text: '' } });
  for (const delta of splitText(part.text, size)) {
    emit('response.output_text.delta', { ...at, delta, logprobs: [] });
  }
  emit('response.output_text.done', { ...at, text: part.text, logprobs: [] });
  emit('response.content_part.done', { ...at, part });
  emit('response.output_item.done', { output_index: index, item });
}

/** A function call item: header first (empty arguments), then argument fragments. */
function streamFunctionCall(emit: Emit, item: FunctionCallItem, index: number, size: number): void {
  const at = { item_id: item.id, output_index: index };
  const started = { ...item, status: 'in_progress', arguments: '' };
  emit('response.output_item.added', { output_index: index, item: started });
  for (const delta of splitText(item.arguments, size)) {
    emit('response.function_call_arguments.delta', { ...at, delta });
  }
  emit('response.function_call_arguments.done', {
    ...at,
    name: item.name,
    arguments: item.arguments,
  });
  emit('response.output_item.done', { output_index: index, item });
}

/** Every event of the stream, numbered in order from 0. */
function streamFrames(plan: Plan): SseFrame[] {
  const frames: SseFrame[] = [];
  let sequence = 0;
  const emit: Emit = (type, fields) => {
    frames.push({ event: type, data: { type, sequence_number: sequence++, ...fields } });
  };
  const { textChunkSize, argumentsChunkSize } = resolveChunking(plan.turn);
  emit('response.created', { response: responseObject(plan, false) });
  emit('response.in_progress', { response: responseObject(plan, false) });
  plan.items.forEach((item, index) => {
    if (item.type === 'reasoning') streamReasoning(emit, item, index, textChunkSize);
    else if (item.type === 'message') streamMessage(emit, item, index, textChunkSize);
    else streamFunctionCall(emit, item, index, argumentsChunkSize);
  });
  const last = plan.status === 'completed' ? 'response.completed' : 'response.incomplete';
  emit(last, { response: responseObject(plan, true) });
  return frames;
}

/** The OpenAI Responses wire protocol. */
export const openaiResponsesEncoder: ProtocolEncoder = {
  protocol: 'openai-responses',
  json: (turn, context) => responseObject(planOf(turn, context), true),
  stream: (turn, context) => streamFrames(planOf(turn, context)),
  // Every OpenAI endpoint shares one error shape; borrowing it keeps the two encoders in step.
  errorBody: (status, message, type, code) =>
    openaiChatEncoder.errorBody(status, message, type, code),
};
