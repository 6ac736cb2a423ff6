/**
 * Out-of-band signals enter the conversation without adding a message where that would break
 * role alternation or the provider's prompt cache: steers and the run-budget wrap-up ride on the
 * latest tool result; a redirect appends a visible-text placeholder and a user correction.
 */
import type { ChatMessage, ToolMessage } from '@hermes/protocol';

/** The text appended to a tool result to carry a steer. */
export function steerMarker(note: string): string {
  return `\n\n[User note, sent while you were working; not tool output]: ${note}`;
}

/** The one-time note at 80% of the run budget. */
export const WRAP_UP_NOTE =
  '[Run budget: 80% of the allotted time is used. Start wrapping up now: finish the current ' +
  'step, then give the user your result with what you have.]';

/**
 * Appends `text` to the newest tool message in place. Returns false when there is none (the
 * caller keeps the note for later). Multimodal content gets an extra text part.
 */
export function appendToLatestToolMessage(messages: ChatMessage[], text: string): boolean {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i];
    if (message?.role !== 'tool') continue;
    messages[i] = appendToToolMessage(message, text);
    return true;
  }
  return false;
}

/** Appends `text` to a tool message in place (a text part when its body has images). */
export function appendToToolMessage(message: ToolMessage, text: string): ToolMessage {
  // Replace in place on the same object: the message may already be persisted (its identity is
  // what makes appends idempotent), and the note must reach the next request.
  if (typeof message.content === 'string') {
    message.content += text;
  } else {
    message.content = [...message.content, { type: 'text', text }];
  }
  return message;
}

/**
 * Applies a redirect: an assistant placeholder holding only the text already shown (never the
 * interrupted reasoning, which providers refuse on replay) and the user's correction.
 */
export function applyRedirect(
  messages: ChatMessage[],
  visibleText: string,
  correction: string,
): void {
  const shown = visibleText.trim();
  messages.push({
    role: 'assistant',
    content: shown ? shown : '[response interrupted before any visible text]',
  });
  messages.push({ role: 'user', content: correction });
}

/** The original request annotated with a redirect, so later compression keeps the correction. */
export function annotateUserRequest(original: string, correction: string): string {
  return `${original}\n\nUser correction during the turn: ${correction}`;
}
