/**
 * Request assembly: a repaired list for one model call. Persisted messages are never mutated
 * here (unchanged ones are shared, changed ones are new objects); the repairs exist because a crash, an interrupt or a compression can
 * leave shapes that providers reject (a tool call without its result, a result without its call,
 * two user messages in a row).
 */
import type { AssistantMessage, ChatMessage, MessageContent, ToolMessage } from '@hermes/protocol';

/** The stub result given to a tool call that has none. */
export const MISSING_RESULT_TEXT =
  '[No result: this tool call was interrupted before it finished. Do not assume it ran.]';

/** Content sent in place of a message's own (recalled memory, expanded skills). */
export type ApiContentLookup = (message: ChatMessage) => MessageContent | undefined;

/**
 * Builds the message list for one request: system prompt first, then the conversation with
 * orphan tool results dropped, missing results stubbed, and consecutive user (or plain
 * assistant) messages merged so roles alternate.
 */
export function buildRequestMessages(
  systemPrompt: string,
  conversation: readonly ChatMessage[],
  apiContent: ApiContentLookup = () => undefined,
): ChatMessage[] {
  const out: ChatMessage[] = systemPrompt ? [{ role: 'system', content: systemPrompt }] : [];
  let open: { ids: Set<string>; answered: Set<string>; call: AssistantMessage } | undefined;
  const closeOpen = (): void => {
    if (!open) return;
    for (const id of open.ids) {
      if (!open.answered.has(id)) out.push(stubResult(id, open.call));
    }
    open = undefined;
  };
  for (const original of conversation) {
    if (original.role === 'system') continue;
    if (original.role === 'tool') {
      if (!open?.ids.has(original.tool_call_id) || open.answered.has(original.tool_call_id)) {
        continue; // an orphan or a duplicate result: providers reject both
      }
      open.answered.add(original.tool_call_id);
      out.push(withApiContent(original, apiContent));
      continue;
    }
    closeOpen();
    const message = withApiContent(original, apiContent);
    if (message.role === 'assistant' && message.tool_calls?.length) {
      open = {
        ids: new Set(message.tool_calls.map((c) => c.id)),
        answered: new Set(),
        call: message,
      };
      out.push(message);
      continue;
    }
    mergeOrPush(out, message);
  }
  closeOpen();
  return out;
}

function stubResult(id: string, call: AssistantMessage): ToolMessage {
  const name = call.tool_calls?.find((c) => c.id === id)?.function.name;
  return {
    role: 'tool',
    tool_call_id: id,
    content: MISSING_RESULT_TEXT,
    ...(name ? { name } : {}),
  };
}

/**
 * The message as sent. Unchanged messages are passed by reference — copying hundreds of messages
 * per request showed up in the loop's profile — so request assembly must never mutate them; every
 * repair below builds a new object instead.
 */
function withApiContent<T extends ChatMessage>(message: T, lookup: ApiContentLookup): T {
  const content = lookup(message);
  return content === undefined ? message : ({ ...message, content } as T);
}

function mergeOrPush(out: ChatMessage[], message: ChatMessage): void {
  const last = out[out.length - 1];
  const mergeable =
    last &&
    last.role === message.role &&
    (message.role === 'user' ||
      (message.role === 'assistant' && !(last as AssistantMessage).tool_calls?.length));
  if (!mergeable) {
    out.push(message);
    return;
  }
  out[out.length - 1] = {
    ...last,
    content: joinContent(last.content, message.content),
  } as ChatMessage;
}

function joinContent(
  a: MessageContent | null | undefined,
  b: MessageContent | null | undefined,
): MessageContent {
  if (typeof a === 'string' && typeof b === 'string') return a && b ? `${a}\n\n${b}` : a || b;
  const parts = (value: MessageContent | null | undefined) =>
    value == null
      ? []
      : typeof value === 'string'
        ? [{ type: 'text' as const, text: value }]
        : value;
  return [...parts(a), ...parts(b)];
}
