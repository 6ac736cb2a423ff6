/**
 * `POST /v1/responses` bodies: the schema and the turn it asks for — `input` as a string or as
 * items (messages, and the function calls and outputs of earlier turns), `instructions` as the
 * system message of a new conversation.
 */
import type { AssistantMessage, ChatMessage, ContentPart } from '@hermes/protocol';
import { z } from 'zod';
import type { Attachment } from '../../messages.js';
import { ApiError } from './api-error.js';
import type { UserTurn } from './chat-request.js';

const PartSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('input_text'), text: z.string() }),
  z.looseObject({ type: z.literal('output_text'), text: z.string() }),
  z.looseObject({ type: z.literal('input_image'), image_url: z.string().min(1) }),
]);
type Part = z.infer<typeof PartSchema>;

const MessageItemSchema = z.looseObject({
  type: z.literal('message').optional(),
  role: z.enum(['user', 'assistant', 'system', 'developer']),
  content: z.union([z.string(), z.array(PartSchema)]),
});
const FunctionCallItemSchema = z.looseObject({
  type: z.literal('function_call'),
  call_id: z.string().min(1),
  name: z.string(),
  arguments: z.string(),
});
const FunctionOutputItemSchema = z.looseObject({
  type: z.literal('function_call_output'),
  call_id: z.string().min(1),
  output: z.string(),
});
/** Reasoning items of earlier answers: accepted, and left out of the conversation. */
const ReasoningItemSchema = z.looseObject({ type: z.literal('reasoning') });

const ItemSchema = z.union([
  MessageItemSchema,
  FunctionCallItemSchema,
  FunctionOutputItemSchema,
  ReasoningItemSchema,
]);
type Item = z.infer<typeof ItemSchema>;

/** The fields of a Responses request the server reads. */
export const ResponsesRequestSchema = z.looseObject({
  model: z.string().optional(),
  input: z.union([z.string(), z.array(ItemSchema).min(1)]),
  instructions: z.string().nullish(),
  previous_response_id: z.string().min(1).nullish(),
  /** Default true, as in OpenAI: the answer is kept for `previous_response_id`. */
  store: z.boolean().nullish(),
  stream: z.boolean().nullish(),
  user: z.string().trim().min(1).max(256).optional(),
});
export type ResponsesRequest = z.infer<typeof ResponsesRequestSchema>;

function partsText(content: string | readonly Part[]): string {
  if (typeof content === 'string') return content;
  return content.flatMap((part) => (part.type === 'input_image' ? [] : [part.text])).join('\n');
}

function userContent(content: string | readonly Part[]): string | ContentPart[] {
  if (typeof content === 'string') return content;
  return content.map(
    (part): ContentPart =>
      part.type === 'input_image'
        ? { type: 'image_url', image_url: { url: part.image_url } }
        : { type: 'text', text: part.text },
  );
}

/** Adds one item to the conversation; calls join the assistant message before them. */
function append(messages: ChatMessage[], item: Item): void {
  if (!('type' in item) || item.type === undefined || item.type === 'message') {
    const message = item as z.infer<typeof MessageItemSchema>;
    if (message.role === 'user') {
      messages.push({ role: 'user', content: userContent(message.content) });
    } else if (message.role === 'assistant') {
      messages.push({ role: 'assistant', content: partsText(message.content) });
    } else {
      messages.push({ role: 'system', content: partsText(message.content) });
    }
    return;
  }
  if (item.type === 'function_call') {
    const call = item as z.infer<typeof FunctionCallItemSchema>;
    const toolCall = {
      id: call.call_id,
      type: 'function' as const,
      function: { name: call.name, arguments: call.arguments },
    };
    const last = messages.at(-1);
    if (last?.role === 'assistant') {
      (last as { tool_calls?: AssistantMessage['tool_calls'] }).tool_calls = [
        ...(last.tool_calls ?? []),
        toolCall,
      ];
    } else {
      messages.push({ role: 'assistant', content: null, tool_calls: [toolCall] });
    }
    return;
  }
  if (item.type === 'function_call_output') {
    const output = item as z.infer<typeof FunctionOutputItemSchema>;
    messages.push({ role: 'tool', content: output.output, tool_call_id: output.call_id });
  }
}

/**
 * The new user message of a Responses request and the conversation before it (with
 * `instructions` first, for a conversation that starts here).
 *
 * @throws ApiError 400 when the last item is not a user message.
 */
export function responsesTurn(body: ResponsesRequest): UserTurn {
  const system: ChatMessage[] =
    body.instructions && !body.previous_response_id
      ? [{ role: 'system', content: body.instructions }]
      : [];
  if (typeof body.input === 'string') {
    return { text: body.input, attachments: [], history: system };
  }
  const messages: ChatMessage[] = [];
  for (const item of body.input) append(messages, item);
  const last = messages.at(-1);
  if (last?.role !== 'user') {
    throw new ApiError(400, "The last item of 'input' must be a user message.", {
      param: 'input',
      code: 'invalid_value',
    });
  }
  const content = last.content;
  const text =
    typeof content === 'string'
      ? content
      : content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
  const attachments: Attachment[] =
    typeof content === 'string'
      ? []
      : content.flatMap((part): Attachment[] =>
          part.type === 'image_url' ? [{ kind: 'image', url: part.image_url.url }] : [],
        );
  return { text, attachments, history: [...system, ...messages.slice(0, -1)] };
}
