/**
 * What the review agent is told: the conversation as a transcript (the newest part, within the
 * input cap) and what to look for. The transcript is text, not replayed messages, so the review
 * model never sees tool calls for tools it does not have, and its input is bounded by characters.
 */
import type { ChatMessage, MessageContent } from '@hermes/protocol';

/** Characters of one tool result shown in the transcript: enough to see what happened. */
const TOOL_RESULT_CHARS = 600;

/** Why the review runs: it shapes what the reviewer should look for first. */
export type ReviewReason = 'turns' | 'tool_calls' | 'manual';

const FOCUS: Record<ReviewReason, string> = {
  turns:
    'Several exchanges have passed since the last review: look first for durable facts about the user and their environment.',
  tool_calls:
    'The last request took many tool calls: look first for a procedure worth keeping as a skill, or a fix to a skill that was used.',
  manual: 'The user asked for this review: look for anything worth keeping.',
};

/** The instructions that follow the transcript. */
export function reviewInstructions(reason: ReviewReason): string {
  return [
    'You are reviewing the conversation above, after it happened, to decide whether anything in it is worth keeping for future sessions. The user does not see this review.',
    FOCUS[reason],
    'Use the memory tool for short durable facts: the user (target "user": who they are, preferences, how they like to work) or the environment (target "memory": conventions, tool quirks, lessons learned). Do not save task progress, one-off details, secrets or anything easy to look up again.',
    'Use skill_manage to create a skill when the conversation shows a reusable procedure of several steps that worked (a name in lower-case-with-dashes, SKILL.md with front matter: name, description; then the steps), or to patch a skill that turned out wrong or incomplete.',
    'Most conversations hold nothing worth keeping. If so, call no tool and answer "Nothing to keep." Otherwise make the calls, then answer with one short sentence saying what you kept.',
  ].join('\n\n');
}

/** The review's user message: the transcript (newest `maxChars` characters), then the instructions. */
export function reviewPrompt(
  messages: readonly ChatMessage[],
  reason: ReviewReason,
  maxChars: number,
): string {
  const lines = messages.filter((m) => m.role !== 'system').map(renderMessage);
  const kept: string[] = [];
  let used = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i] as string;
    if (used + line.length > maxChars) {
      if (kept.length === 0) kept.unshift(`…${line.slice(line.length - maxChars)}`);
      break;
    }
    kept.unshift(line);
    used += line.length + 2;
  }
  const omitted = lines.length - kept.length;
  const head = omitted > 0 ? [`[${omitted} earlier messages omitted]`] : [];
  return [
    '<conversation>',
    [...head, ...kept].join('\n\n'),
    '</conversation>',
    '',
    reviewInstructions(reason),
  ].join('\n');
}

function renderMessage(message: ChatMessage): string {
  switch (message.role) {
    case 'user':
      return `USER: ${contentText(message.content)}`;
    case 'assistant': {
      const calls = (message.tool_calls ?? []).map(
        (call) => `[called ${call.function.name} ${clip(call.function.arguments, 300)}]`,
      );
      const text = message.content === null ? '' : contentText(message.content);
      return `ASSISTANT: ${[text, ...calls].filter(Boolean).join('\n')}`;
    }
    case 'tool':
      return `TOOL RESULT (${message.name ?? 'tool'}): ${clip(contentText(message.content), TOOL_RESULT_CHARS)}`;
    default:
      return '';
  }
}

function contentText(content: MessageContent): string {
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text : '[image]')).join(' ');
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
