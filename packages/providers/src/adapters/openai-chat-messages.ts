/**
 * Hermes messages → Chat Completions messages. Hermes already speaks the OpenAI shape, so this
 * mostly copies; what it removes are the Hermes-only fields that strict servers reject as
 * unknown properties: `reasoning`, `finish_reason`, and `reasoning_details` — except towards
 * OpenRouter, which asks for its own `reasoning.*` details back verbatim (signed reasoning of
 * Anthropic and Gemini models must accompany the tool calls it led to). Other details (Anthropic
 * thinking blocks, Responses items kept after a fallback) mean nothing to OpenRouter and stay out.
 *
 * Every message is a fresh object: the caller's messages are never handed to the SDK.
 */
import type {
  AssistantMessage,
  ChatMessage,
  ContentPart,
  MessageContent,
  ReasoningDetail,
  ToolMessage,
  UserMessage,
} from '@hermes/protocol';
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionContentPart,
  ChatCompletionContentPartText,
  ChatCompletionMessageParam,
  ChatCompletionToolMessageParam,
  ChatCompletionUserMessageParam,
} from 'openai/resources/chat/completions';
import { contentText, openRouterDetails } from './openai-shared.js';

/** An assistant message as sent to OpenRouter, with its reasoning details for replay. */
export type ReplayingAssistantParam = ChatCompletionAssistantMessageParam & {
  reasoning_details?: ReasoningDetail[];
};

/** How messages are converted for one endpoint. */
export interface ChatMessageOptions {
  /** Send OpenRouter's `reasoning.*` details back on assistant messages. */
  readonly replayReasoningDetails: boolean;
}

/** Tool results in Chat Completions may hold text only; an image becomes a short note. */
const IMAGE_IN_TOOL_RESULT = '[image omitted: Chat Completions tool results carry text only]';

function userPart(part: ContentPart): ChatCompletionContentPart {
  if (part.type === 'text') return { type: 'text', text: part.text };
  const { url, detail } = part.image_url;
  return { type: 'image_url', image_url: detail === undefined ? { url } : { url, detail } };
}

function textParts(content: readonly ContentPart[], imageNote: string) {
  return content.map(
    (part): ChatCompletionContentPartText => ({
      type: 'text',
      text: part.type === 'text' ? part.text : imageNote,
    }),
  );
}

function userMessage(message: UserMessage): ChatCompletionUserMessageParam {
  const content =
    typeof message.content === 'string' ? message.content : message.content.map(userPart);
  const param: ChatCompletionUserMessageParam = { role: 'user', content };
  if (message.name !== undefined) param.name = message.name;
  return param;
}

/** Assistant content is text only on the wire; images in a stored assistant message are dropped. */
function assistantContent(content: MessageContent | null, hasCalls: boolean): string | null {
  const text = contentText(content);
  // The API wants content unless the message calls tools, where null is the usual form.
  return text === '' && hasCalls ? null : text;
}

function assistantMessage(
  message: AssistantMessage,
  options: ChatMessageOptions,
): ReplayingAssistantParam {
  const calls = message.tool_calls ?? [];
  const param: ReplayingAssistantParam = {
    role: 'assistant',
    content: assistantContent(message.content, calls.length > 0),
  };
  if (calls.length > 0) {
    param.tool_calls = calls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.function.name, arguments: call.function.arguments },
    }));
  }
  if (options.replayReasoningDetails) {
    const details = openRouterDetails(message.reasoning_details);
    if (details.length > 0) param.reasoning_details = details.map((detail) => ({ ...detail }));
  }
  return param;
}

/** `name` is left out: the Chat Completions tool message has no such field. */
function toolMessage(message: ToolMessage): ChatCompletionToolMessageParam {
  const content =
    typeof message.content === 'string'
      ? message.content
      : textParts(message.content, IMAGE_IN_TOOL_RESULT);
  return { role: 'tool', tool_call_id: message.tool_call_id, content };
}

/** Converts one Hermes message to its Chat Completions form. */
export function toChatMessage(
  message: ChatMessage,
  options: ChatMessageOptions,
): ChatCompletionMessageParam {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content };
    case 'user':
      return userMessage(message);
    case 'assistant':
      return assistantMessage(message, options);
    case 'tool':
      return toolMessage(message);
  }
}

/** Converts a whole conversation, in order. */
export function toChatMessages(
  messages: readonly ChatMessage[],
  options: ChatMessageOptions,
): ChatCompletionMessageParam[] {
  return messages.map((message) => toChatMessage(message, options));
}
