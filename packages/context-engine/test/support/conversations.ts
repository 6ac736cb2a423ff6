/** Conversation builders and scripted summarizers for the compressor tests. */
import type { ChatMessage } from '@hermes/protocol';
import { MODEL_SECTIONS, type Summarizer, type SummaryRequest } from '../../src/index.js';

/** An assistant tool call and its result, as two messages. */
export function toolExchange(
  id: string,
  name: string,
  args: Record<string, unknown>,
  output: string,
): ChatMessage[] {
  return [
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
    },
    { role: 'tool', tool_call_id: id, name, content: output },
  ];
}

/**
 * A system prompt, then `turns` turns of: user request, a terminal call with `outputLines` lines
 * of output, and an assistant answer. Ends with a final user message.
 */
export function conversation(turns: number, outputLines = 40): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: 'system', content: 'You are the test agent.' }];
  for (let t = 0; t < turns; t++) {
    messages.push({
      role: 'user',
      content: `Request ${t}: please fix the failing test in packages/p${t}/src/mod${t}.ts and keep going. ${'detail '.repeat(40)}`,
    });
    const output = `exit code: ${t % 2}\n${Array.from({ length: outputLines }, (_, i) => `line ${i} of run ${t}`).join('\n')}`;
    messages.push(
      ...toolExchange(`call_${t}`, 'terminal', { command: `npm test -w p${t}` }, output),
    );
    messages.push({
      role: 'assistant',
      content: `Done with step ${t}. ${'explanation '.repeat(40)}`,
    });
  }
  messages.push({ role: 'user', content: 'Final request: summarize what you did.' });
  return messages;
}

/** A summary following the template, with `marker` in the Goals section. */
export function templateSummary(marker: string, extra: Record<string, string> = {}): string {
  return MODEL_SECTIONS.map(
    (s) => `## ${s}\n${extra[s] ?? (s === 'Goals' ? marker : 'None')}`,
  ).join('\n\n');
}

/** A summarizer that answers `reply(request)` and records every request. */
export function scriptedSummarizer(
  reply: (request: SummaryRequest, call: number) => string | Promise<string> = () =>
    templateSummary('goal from the model'),
): Summarizer & { requests: SummaryRequest[] } {
  const requests: SummaryRequest[] = [];
  const fn = async (request: SummaryRequest) => {
    requests.push(request);
    return reply(request, requests.length);
  };
  return Object.assign(fn, { requests });
}

/** A controllable clock. */
export function fakeClock(start = 1_700_000_000_000): {
  now: () => number;
  advance: (ms: number) => void;
} {
  let time = start;
  return { now: () => time, advance: (ms) => (time += ms) };
}

/** A usage report with `prompt` input tokens. */
export function usage(prompt: number) {
  return {
    inputTokens: prompt,
    outputTokens: 10,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
  };
}

/** The text of a message body. */
export function textOf(message: ChatMessage | undefined): string {
  if (!message || message.content === null) return '';
  return typeof message.content === 'string'
    ? message.content
    : message.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
}
