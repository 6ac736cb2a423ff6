/**
 * What the server needs to know about a model request — model, streaming, usage opt-in, the
 * last user text and the system text — read from the body of any of the three wire protocols. The body is outside
 * input, so it is checked with zod; only the fields the server reads are checked, leniently, as a
 * real service would accept them.
 */
import { parseOrThrow } from '@hermes/protocol';
import { z } from 'zod';
import type { WireProtocol } from '../script.js';

/** The model used when a request names none. */
export const DEFAULT_MODEL = 'scripted-model';

/** The facts of one request that matching and encoding depend on. */
export interface RequestFacts {
  readonly protocol: WireProtocol;
  readonly model: string;
  readonly stream: boolean;
  /** OpenAI chat: `stream_options.include_usage` is true. */
  readonly includeUsage: boolean;
  /** The text of the last user message that carries text; `''` when there is none. */
  readonly lastUserText: string;
  /**
   * The system prompt's text: chat `system`/`developer` messages, Anthropic `system`, Responses
   * `instructions` and `system`/`developer` input items, joined by newlines; `''` when none.
   */
  readonly systemText: string;
}

const RequestBodySchema = z.looseObject({
  model: z.string().optional(),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
  messages: z.array(z.unknown()).optional(),
  input: z.union([z.string(), z.array(z.unknown())]).optional(),
  /** Gemini's turns. */
  contents: z.array(z.unknown()).optional(),
  system: z.union([z.string(), z.array(z.unknown())]).nullish(),
  instructions: z.string().nullish(),
});

const SystemMessageSchema = z.looseObject({
  role: z.enum(['system', 'developer']),
  content: z.union([z.string(), z.array(z.unknown())]),
});

const UserMessageSchema = z.looseObject({
  role: z.literal('user'),
  content: z.union([z.string(), z.array(z.unknown())]),
});

/**
 * Text parts: `text` (chat, Anthropic) and `input_text` (Responses) by `type`; Bedrock's and
 * Gemini's carry no `type`, only `text`.
 */
const TextPartSchema = z.union([
  z.looseObject({ type: z.enum(['text', 'input_text']), text: z.string() }),
  z.looseObject({ type: z.undefined().optional(), text: z.string() }),
]);

/** Gemini's system instruction (either spelling). */
const GeminiSystemSchema = z.looseObject({ parts: z.array(z.unknown()) });

/** A Gemini turn: `role` user or model, its `parts`. */
const GeminiContentSchema = z.looseObject({
  role: z.string().optional(),
  parts: z.array(z.unknown()),
});

function textOf(content: string | readonly unknown[]): string {
  if (typeof content === 'string') return content;
  const texts: string[] = [];
  for (const part of content) {
    const parsed = TextPartSchema.safeParse(part);
    if (parsed.success) texts.push(parsed.data.text);
  }
  return texts.join('');
}

/**
 * The last user-authored text. A user message holding only tool results (Anthropic) has no text
 * and is skipped, so the same script matches the same conversation in every protocol.
 */
function lastUserText(items: readonly unknown[]): string {
  for (let i = items.length - 1; i >= 0; i -= 1) {
    const message = UserMessageSchema.safeParse(items[i]);
    if (!message.success) continue;
    const text = textOf(message.data.content);
    if (text !== '') return text;
  }
  return '';
}

/** Every system-authored text of the request, in order. */
function systemText(body: z.output<typeof RequestBodySchema>, items: readonly unknown[]): string {
  const texts: string[] = [];
  if (body.instructions) texts.push(body.instructions);
  if (body.system) texts.push(textOf(body.system));
  for (const item of items) {
    const message = SystemMessageSchema.safeParse(item);
    if (message.success) texts.push(textOf(message.data.content));
  }
  return texts.filter((text) => text !== '').join('\n');
}

/**
 * Reads the facts of a `protocol` request from its parsed JSON `body`.
 *
 * @throws ValidationError (from `@hermes/protocol`) naming the bad field when a field the server
 * reads has the wrong type, e.g. `stream: "yes"`.
 */
export function readRequestFacts(
  protocol: WireProtocol,
  body: unknown,
  route: { readonly model?: string; readonly stream?: boolean } = {},
): RequestFacts {
  const parsed = parseOrThrow(RequestBodySchema, body, `${protocol} request body`);
  const items = conversationItems(protocol, parsed);
  return {
    protocol,
    model: route.model ?? parsed.model ?? DEFAULT_MODEL,
    stream: route.stream ?? parsed.stream === true,
    includeUsage: parsed.stream_options?.include_usage === true,
    lastUserText: lastUserText(items),
    systemText: protocol === 'gemini' ? geminiSystemText(body) : systemText(parsed, items),
  };
}

/**
 * The request's messages in the chat shape (`role`, `content`): Responses `input`, Gemini
 * `contents` (`parts` as content), and everyone else's `messages` (Bedrock's included).
 */
function conversationItems(
  protocol: WireProtocol,
  parsed: z.output<typeof RequestBodySchema>,
): readonly unknown[] {
  if (protocol === 'openai-responses') {
    return typeof parsed.input === 'string'
      ? [{ role: 'user', content: parsed.input }]
      : (parsed.input ?? []);
  }
  if (protocol === 'gemini') {
    return (parsed.contents ?? []).flatMap((item) => {
      const content = GeminiContentSchema.safeParse(item);
      return content.success
        ? [{ role: content.data.role ?? 'user', content: content.data.parts }]
        : [];
    });
  }
  return parsed.messages ?? [];
}

/** Gemini's `systemInstruction` (or `system_instruction`) text. */
function geminiSystemText(body: unknown): string {
  if (typeof body !== 'object' || body === null) return '';
  const record = body as Record<string, unknown>;
  const system = GeminiSystemSchema.safeParse(
    record.systemInstruction ?? record.system_instruction,
  );
  return system.success ? textOf(system.data.parts) : '';
}
