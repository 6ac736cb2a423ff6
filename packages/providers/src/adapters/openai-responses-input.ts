/**
 * Hermes messages → the Responses API's `instructions` and `input` items.
 *
 * - Leading system messages become `instructions` (joined by a blank line); a system message
 *   later in the conversation stays in place as a `system` message item.
 * - User messages: `input_text` / `input_image` parts (a plain string stays a string).
 * - Assistant messages: first the reasoning items to replay, then the text as an assistant
 *   message (the `{role: 'assistant', content}` form the API documents for prior turns), then
 *   one `function_call` item per tool call, with the call's id as `call_id`.
 * - Tool results: `function_call_output` items paired by `call_id`; images in a result are sent
 *   as `input_image` parts, which the Responses API accepts there.
 * - Reasoning replay: requests are sent with `store: false`, so a reasoning item can only be
 *   replayed with its `encrypted_content` (an id alone would point at nothing). Kept Responses
 *   items (`type: 'reasoning'`) and OpenRouter's `reasoning.encrypted` details (`data`) qualify;
 *   anything else (Anthropic thinking kept before a fallback, plain summaries) is left out.
 */
import type {
  AssistantMessage,
  ChatMessage,
  ContentPart,
  ReasoningDetail,
  ToolMessage,
  UserMessage,
} from '@hermes/protocol';
import type {
  ResponseFunctionCallOutputItem,
  ResponseInputContent,
  ResponseInputItem,
  ResponseReasoningItem,
} from 'openai/resources/responses/responses';
import { z } from 'zod';
import { contentText } from './openai-shared.js';

/** The conversation in Responses form. */
export interface ResponsesInput {
  /** The leading system prompt(s); `undefined` when there is none. */
  readonly instructions: string | undefined;
  readonly input: ResponseInputItem[];
}

const SummarySchema = z.array(z.object({ type: z.literal('summary_text'), text: z.string() }));

/** A reasoning item Hermes kept from a Responses answer. */
const KeptReasoningSchema = z.object({
  type: z.literal('reasoning'),
  id: z.string().min(1),
  summary: SummarySchema.catch([]),
  encrypted_content: z.string().min(1),
});

/** OpenRouter's encrypted reasoning detail. */
const OpenRouterEncryptedSchema = z.object({
  type: z.literal('reasoning.encrypted'),
  id: z.string().min(1),
  data: z.string().min(1),
});

/** The reasoning item to replay for `detail`, or `undefined` when it cannot be replayed. */
export function replayableReasoning(detail: ReasoningDetail): ResponseReasoningItem | undefined {
  const kept = KeptReasoningSchema.safeParse(detail);
  if (kept.success) {
    const { id, summary, encrypted_content } = kept.data;
    return { type: 'reasoning', id, summary, encrypted_content };
  }
  const routed = OpenRouterEncryptedSchema.safeParse(detail);
  if (!routed.success) return undefined;
  return {
    type: 'reasoning',
    id: routed.data.id,
    summary: [],
    encrypted_content: routed.data.data,
  };
}

function inputPart(part: ContentPart): ResponseInputContent {
  if (part.type === 'text') return { type: 'input_text', text: part.text };
  const { url, detail } = part.image_url;
  return { type: 'input_image', image_url: url, detail: detail ?? 'auto' };
}

function userItem(message: UserMessage): ResponseInputItem {
  const content =
    typeof message.content === 'string' ? message.content : message.content.map(inputPart);
  return { role: 'user', content };
}

function assistantItems(message: AssistantMessage): ResponseInputItem[] {
  const items: ResponseInputItem[] = [];
  for (const detail of message.reasoning_details ?? []) {
    const reasoning = replayableReasoning(detail);
    if (reasoning !== undefined) items.push(reasoning);
  }
  const text = contentText(message.content);
  if (text !== '') items.push({ role: 'assistant', content: text });
  for (const call of message.tool_calls ?? []) {
    items.push({
      type: 'function_call',
      call_id: call.id,
      name: call.function.name,
      arguments: call.function.arguments,
    });
  }
  return items;
}

function outputPart(part: ContentPart): ResponseFunctionCallOutputItem {
  if (part.type === 'text') return { type: 'input_text', text: part.text };
  const { url, detail } = part.image_url;
  return { type: 'input_image', image_url: url, detail: detail ?? 'auto' };
}

function toolItem(message: ToolMessage): ResponseInputItem {
  const output =
    typeof message.content === 'string' ? message.content : message.content.map(outputPart);
  return { type: 'function_call_output', call_id: message.tool_call_id, output };
}

function itemsOf(message: ChatMessage): ResponseInputItem[] {
  switch (message.role) {
    case 'system':
      return [{ role: 'system', content: message.content }];
    case 'user':
      return [userItem(message)];
    case 'assistant':
      return assistantItems(message);
    case 'tool':
      return [toolItem(message)];
  }
}

/** Converts a conversation; see the module comment for the mapping. Never mutates `messages`. */
export function toResponsesInput(messages: readonly ChatMessage[]): ResponsesInput {
  const system: string[] = [];
  let start = 0;
  for (const message of messages) {
    if (message.role !== 'system') break;
    system.push(message.content);
    start += 1;
  }
  const input = messages.slice(start).flatMap(itemsOf);
  const instructions = system.filter((text) => text !== '').join('\n\n');
  return { instructions: instructions === '' ? undefined : instructions, input };
}
