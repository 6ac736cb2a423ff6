/**
 * Hermes' OpenAI-shaped conversation as Gemini's `contents` and `systemInstruction`.
 *
 * - System messages → `systemInstruction` text parts, in order.
 * - User messages → a `user` turn of text and `inlineData` (base64 image) parts.
 * - Assistant messages → a `model` turn: its text, then one `functionCall` part per tool call
 *   (arguments as an object). Thought signatures kept from the answer (`reasoning_details`) go
 *   back on the part they came with: Gemini 3 rejects a replayed function call without one.
 * - Tool messages → `functionResponse` parts (`name`, `response: {result}`) in a `user` turn.
 *   Gemini pairs calls and responses by order and name, not by id, so no id is sent.
 * - Consecutive turns of one role are merged, so a run of tool results is ONE user turn holding
 *   one response per call of the model turn before it, as the API expects.
 */
import type {
  AssistantMessage,
  ChatMessage,
  MessageContent,
  ReasoningDetail,
  ToolMessage,
} from '@hermes/protocol';
import { toolInputOf } from './anthropic-messages-input.js';

/** One part of a Gemini turn, as the adapter sends it. */
export interface GeminiPart {
  text?: string;
  thoughtSignature?: string;
  inlineData?: { mimeType: string; data: string };
  functionCall?: { name: string; args: Record<string, unknown> };
  functionResponse?: { name: string; response: { result: string } };
}

/** One turn of `contents`. */
export interface GeminiContent {
  role: 'user' | 'model';
  parts: GeminiPart[];
}

/** The conversation part of a request. */
export interface GeminiConversation {
  /** The system prompt, or `undefined` when there is none. */
  readonly systemInstruction: { parts: { text: string }[] } | undefined;
  readonly contents: GeminiContent[];
}

/** The `reasoning_details` type that keeps a Gemini thought signature for replay. */
export const THOUGHT_SIGNATURE_DETAIL = 'gemini.thought_signature';

/** `data:<media type>[;params];base64,<data>`. */
const DATA_URL = /^data:([^;,]+)((?:;[^;,]*)*),/i;

/** An image URL as an `inlineData` part, or a short text note for what Gemini cannot take inline. */
function imagePart(url: string): GeminiPart {
  const data = DATA_URL.exec(url);
  if (data !== null && (data[2] ?? '').toLowerCase().split(';').includes('base64')) {
    const mimeType = (data[1] ?? '').trim().toLowerCase();
    return { inlineData: { mimeType, data: url.slice(data[0].length) } };
  }
  // Gemini fetches no arbitrary URLs: only uploaded files, which Hermes does not manage.
  return { text: '[image omitted: only base64 data: image URLs can be sent to Gemini]' };
}

/** A message body as parts, in order; empty text is dropped (the API rejects empty parts). */
function mediaParts(content: MessageContent): GeminiPart[] {
  if (typeof content === 'string') return content === '' ? [] : [{ text: content }];
  return content.flatMap((part): GeminiPart[] => {
    if (part.type === 'image_url') return [imagePart(part.image_url.url)];
    return part.text === '' ? [] : [{ text: part.text }];
  });
}

/** A tool result as text: text parts joined, an image only noted (a function response is JSON). */
function resultText(content: MessageContent): string {
  if (typeof content === 'string') return content;
  return content
    .map((part) => (part.type === 'text' ? part.text : '[image omitted from the tool result]'))
    .join('\n');
}

/** The signatures kept for `message`: by tool call id, and the one that came with its text. */
function signaturesOf(details: readonly ReasoningDetail[] | undefined) {
  const byCall = new Map<string, string>();
  let text: string | undefined;
  for (const detail of details ?? []) {
    if (detail.type !== THOUGHT_SIGNATURE_DETAIL || !detail.signature) continue;
    if (detail.id !== undefined) byCall.set(detail.id, detail.signature);
    else text ??= detail.signature;
  }
  return { byCall, text };
}

function modelTurn(message: AssistantMessage): GeminiContent | undefined {
  const signatures = signaturesOf(message.reasoning_details);
  const text = message.content === null ? [] : mediaParts(message.content);
  const textParts = text.filter((part) => part.text !== undefined);
  const lastText = textParts.at(-1);
  if (lastText !== undefined && signatures.text !== undefined) {
    lastText.thoughtSignature = signatures.text;
  }
  const calls = (message.tool_calls ?? []).map((call): GeminiPart => {
    const signature = signatures.byCall.get(call.id);
    return {
      functionCall: { name: call.function.name, args: toolInputOf(call.function.arguments) },
      ...(signature === undefined ? {} : { thoughtSignature: signature }),
    };
  });
  const parts = [...textParts, ...calls];
  return parts.length === 0 ? undefined : { role: 'model', parts };
}

function toolTurn(message: ToolMessage, names: ReadonlyMap<string, string>): GeminiContent {
  const name = message.name ?? names.get(message.tool_call_id) ?? 'unknown_function';
  return {
    role: 'user',
    parts: [{ functionResponse: { name, response: { result: resultText(message.content) } } }],
  };
}

/** Converts a conversation. Never mutates `messages`: every part is a new object. */
export function toGeminiConversation(messages: readonly ChatMessage[]): GeminiConversation {
  const system: { text: string }[] = [];
  const contents: GeminiContent[] = [];
  // A tool message may omit its name; Gemini needs it, so it is taken from the call.
  const names = new Map<string, string>();
  for (const message of messages) {
    let turn: GeminiContent | undefined;
    if (message.role === 'system') {
      if (message.content !== '') system.push({ text: message.content });
      continue;
    }
    if (message.role === 'user') {
      const parts = mediaParts(message.content);
      turn = parts.length === 0 ? undefined : { role: 'user', parts };
    } else if (message.role === 'assistant') {
      for (const call of message.tool_calls ?? []) names.set(call.id, call.function.name);
      turn = modelTurn(message);
    } else {
      turn = toolTurn(message, names);
    }
    if (turn === undefined) continue;
    const last = contents.at(-1);
    if (last?.role === turn.role) last.parts.push(...turn.parts);
    else contents.push(turn);
  }
  return {
    systemInstruction: system.length === 0 ? undefined : { parts: system },
    contents: contents.map(responsesFirst),
  };
}

/** In a user turn, the function responses first (they answer the turn before), the rest after. */
function responsesFirst(turn: GeminiContent): GeminiContent {
  if (turn.role !== 'user') return turn;
  const responses = turn.parts.filter((part) => part.functionResponse !== undefined);
  if (responses.length === 0 || responses.length === turn.parts.length) return turn;
  const rest = turn.parts.filter((part) => part.functionResponse === undefined);
  return { role: 'user', parts: [...responses, ...rest] };
}
