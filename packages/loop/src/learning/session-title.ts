/**
 * A session's title from the `title` slot after its first exchange: at most 60 characters, no
 * quotes, and never over a title the user set (checked before asking and again before writing).
 */
import type { ChatMessage, MessageContent } from '@hermes/protocol';
import type { ModelProvider } from '@hermes/providers';
import type { SessionStore } from '@hermes/state';

/** The longest title kept. */
export const MAX_TITLE_CHARS = 60;

const TITLE_INSTRUCTIONS =
  'Write a short title (3 to 7 words) for the conversation below, the way a person would name a ' +
  'chat in a list. Answer with the title only: no quotes, no trailing period, no prefix.';

/** What {@link titleSession} needs. */
export interface TitleRequest {
  readonly store: SessionStore;
  readonly sessionId: string;
  readonly provider: ModelProvider & { readonly model: string };
  readonly messages: readonly ChatMessage[];
  readonly signal?: AbortSignal;
}

/**
 * Asks for a title and stores it; resolves to the title set, or undefined when the session
 * already had one (or got one meanwhile), the exchange has no text, or the answer is empty.
 */
export async function titleSession(request: TitleRequest): Promise<string | undefined> {
  const { store, sessionId } = request;
  if ((await store.getSession(sessionId))?.title) return undefined;
  const exchange = firstExchange(request.messages);
  if (!exchange) return undefined;
  const response = await request.provider.chat(
    {
      model: request.provider.model,
      messages: [
        { role: 'system', content: TITLE_INSTRUCTIONS },
        { role: 'user', content: exchange },
      ],
      maxOutputTokens: 40,
    },
    request.signal ? { signal: request.signal } : {},
  );
  const title = cleanTitle(textOf(response.message.content));
  if (!title) return undefined;
  // The user may have named the session while the model was answering: theirs wins.
  if ((await store.getSession(sessionId))?.title) return undefined;
  await store.updateSession(sessionId, { title });
  return title;
}

/** The model's answer as a title: one line, no quotes or "Title:", at most 60 characters. */
export function cleanTitle(answer: string): string {
  const line = answer.trim().split('\n')[0] ?? '';
  let title = line
    .replace(/["'`“”‘’«»*#]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^title\s*:\s*/i, '')
    .replace(/[.。]+$/, '');
  if (title.length > MAX_TITLE_CHARS) {
    const cut = title.slice(0, MAX_TITLE_CHARS);
    const space = cut.lastIndexOf(' ');
    title = (space > MAX_TITLE_CHARS / 2 ? cut.slice(0, space) : cut).trim();
  }
  return title;
}

/** The first user message and the first assistant text after it, each cut to 1,000 characters. */
function firstExchange(messages: readonly ChatMessage[]): string | undefined {
  const userIndex = messages.findIndex((m) => m.role === 'user');
  if (userIndex < 0) return undefined;
  const user = textOf((messages[userIndex] as { content: MessageContent }).content);
  const answer = messages
    .slice(userIndex + 1)
    .find((m) => m.role === 'assistant' && textOf(m.content).trim() !== '');
  const reply = answer ? textOf(answer.content as MessageContent | null) : '';
  if (!user.trim()) return undefined;
  return `User: ${user.slice(0, 1_000)}\n\nAssistant: ${reply.slice(0, 1_000)}`;
}

function textOf(content: MessageContent | null): string {
  if (content === null) return '';
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text : '')).join(' ');
}
