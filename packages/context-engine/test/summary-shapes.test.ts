import type { ChatMessage } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { ContextCompressor, parseSections, SUMMARY_MARKER } from '../src/index.js';
import { assertToolPairsIntact } from '../src/testing.js';
import { conversation, scriptedSummarizer, textOf, toolExchange } from './support/conversations.js';

const AFTER = /Respond only to the latest user message after this summary/;

/** Agent work without any user message: tool calls and short notes. */
function agentWork(label: string, steps: number): ChatMessage[] {
  return Array.from({ length: steps }, (_, i): ChatMessage[] => [
    ...toolExchange(
      `${label}${i}`,
      'terminal',
      { command: `${label} ${i}` },
      `ok ${i}\n`.repeat(200),
    ),
    { role: 'assistant', content: `${label} step ${i} done. ${'notes '.repeat(50)}` },
  ]).flat();
}

const isSummary = (m: ChatMessage) => textOf(m).startsWith(SUMMARY_MARKER);
const isRealUser = (m: ChatMessage) => m.role === 'user' && !isSummary(m);

/**
 * The summary's closing instruction must match where the latest real user message ended up:
 * after the summary, only before it, or nowhere.
 */
function expectFittingInstruction(messages: readonly ChatMessage[]): 'after' | 'before' | 'none' {
  const summaries = messages.filter(isSummary);
  expect(summaries).toHaveLength(1);
  const at = messages.findIndex(isSummary);
  const text = textOf(messages[at]);
  const snapshot = parseSections(text).get('Historical Task Snapshot') ?? '';
  if (messages.slice(at + 1).some(isRealUser)) {
    expect(text).toMatch(AFTER);
    expect(snapshot).toMatch(/after this summary/);
    return 'after';
  }
  expect(text).not.toMatch(AFTER);
  expect(snapshot).not.toMatch(/after this summary/);
  expect(text).toMatch(/continue/i);
  if (messages.slice(0, at).some(isRealUser)) {
    expect(text).toMatch(/before (it|this summary)/);
    return 'before';
  }
  return 'none';
}

const engine = () =>
  new ContextCompressor({
    contextLength: 200_000,
    tailTokens: 400,
    maxAttemptsPerTurn: 10,
    summarizer: scriptedSummarizer(),
  });

describe('the summary says the right thing for the shape of the session', () => {
  it('a single request at the start: continue the task, then answer it once it follows', async () => {
    const compressor = engine();
    const input: ChatMessage[] = [
      { role: 'system', content: 'You are the test agent.' },
      { role: 'user', content: 'Migrate every package to ESM.' },
      ...agentWork('migrate', 14),
    ];
    const first = await compressor.compress(input, { force: true });
    expect(first.changed).toBe(true);
    expect(expectFittingInstruction(first.messages)).toBe('before');
    const snapshot = parseSections(first.summary ?? '').get('Historical Task Snapshot') ?? '';
    expect(snapshot).toContain('Migrate every package to ESM.');

    // Second compression: the head shrinks, the request is carried right after the summary.
    const second = await compressor.compress([...first.messages, ...agentWork('more', 10)], {
      force: true,
    });
    expect(second.changed).toBe(true);
    expect(expectFittingInstruction(second.messages)).toBe('after');
    const at = second.messages.findIndex(isSummary);
    expect(textOf(second.messages[at + 1])).toBe('Migrate every package to ESM.');
    assertToolPairsIntact(second.messages);
    // The previous summary was merged, not mistaken for the user's latest message.
    const again = parseSections(second.summary ?? '').get('Historical Task Snapshot') ?? '';
    expect(again).not.toContain(SUMMARY_MARKER);
    expect(again).toContain('Migrate every package to ESM.');
  });

  it('a last user message in the tail or mid-span: answer it after the summary', async () => {
    const tail = await engine().compress(conversation(12), { force: true });
    expect(expectFittingInstruction(tail.messages)).toBe('after');
    const pinned = [...conversation(3), ...agentWork('w', 12)];
    const mid = await engine().compress(pinned, { force: true });
    expect(mid.pinnedUserIndex).toBeDefined();
    expect(expectFittingInstruction(mid.messages)).toBe('after');
  });

  it('no user message at all, twice: continue the task the system prompt set', async () => {
    const compressor = engine();
    const input: ChatMessage[] = [
      { role: 'system', content: 'cron: check the backups' },
      ...agentWork('check', 14),
    ];
    const first = await compressor.compress(input, { force: true });
    expect(expectFittingInstruction(first.messages)).toBe('none');
    const second = await compressor.compress([...first.messages, ...agentWork('recheck', 10)], {
      force: true,
    });
    expect(expectFittingInstruction(second.messages)).toBe('none');
    const snapshot = parseSections(second.summary ?? '').get('Historical Task Snapshot') ?? '';
    expect(snapshot).toMatch(/^No user messages/);
    expect(second.summary).not.toMatch(/user asked:/i);
  });

  it('a request that survives only inside a previous summary: continue that request', async () => {
    const compressor = engine();
    const input: ChatMessage[] = [
      { role: 'system', content: 'You are the test agent.' },
      { role: 'user', content: 'Rotate the TLS certificates.' },
      ...agentWork('rotate', 14),
    ];
    const first = await compressor.compress(input, { force: true });
    // A host dropped the head (for example after an undo): only the summary quotes the user.
    const summary = first.messages.find(isSummary) as ChatMessage;
    const rest = first.messages.slice(first.messages.indexOf(summary) + 1);
    const second = await compressor.compress(
      [first.messages[0] as ChatMessage, summary, ...rest, ...agentWork('more', 10)],
      { force: true },
    );
    expect(expectFittingInstruction(second.messages)).toBe('none');
    const text = second.summary ?? '';
    expect(text).toMatch(/quoted in the Historical Task Snapshot/);
    const snapshot = parseSections(text).get('Historical Task Snapshot') ?? '';
    expect(snapshot).toContain('Rotate the TLS certificates.');
  });
});
