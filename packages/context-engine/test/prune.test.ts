import type { ChatMessage } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import {
  countLines,
  pruneToolResults,
  summarizeToolResult,
  truncateArguments,
} from '../src/index.js';
import { textOf, toolExchange } from './support/conversations.js';

const lines = (n: number) => Array.from({ length: n }, (_, i) => `out ${i}`).join('\n');

describe('one-line tool summaries', () => {
  it('writes the terminal format with the exit code and line count', () => {
    const [call] = toolExchange('c1', 'terminal', { command: 'npm test' }, '');
    const tool = call?.role === 'assistant' ? call.tool_calls?.[0] : undefined;
    const output = `${lines(46)}\nexit code: 0`;
    expect(summarizeToolResult('terminal', tool, output)).toBe(
      '[terminal] ran `npm test` -> exit 0, 47 lines',
    );
  });

  it('names the most descriptive argument of other tools', () => {
    const [call] = toolExchange('c1', 'read_file', { path: 'src/a.ts', limit: 10 }, '');
    const tool = call?.role === 'assistant' ? call.tool_calls?.[0] : undefined;
    expect(summarizeToolResult('read_file', tool, lines(120))).toBe(
      '[read_file] path=src/a.ts -> 120 lines',
    );
    expect(countLines('a\nb\n')).toBe(2);
  });
});

describe('truncateArguments', () => {
  it('keeps short arguments and shrinks long ones into valid JSON', () => {
    expect(truncateArguments('{"a":1}', 100)).toBe('{"a":1}');
    const raw = JSON.stringify({ path: 'x.ts', content: 'z'.repeat(10_000) });
    const cut = truncateArguments(raw, 2_000);
    expect(cut.length).toBeLessThan(1_000);
    const parsed = JSON.parse(cut) as { path: string; content: string };
    expect(parsed.path).toBe('x.ts');
    expect(parsed.content).toMatch(/truncated/);
    expect(() => JSON.parse(truncateArguments(`not json ${'q'.repeat(5_000)}`, 100))).not.toThrow();
  });
});

describe('phase 1 pruning', () => {
  const build = (): ChatMessage[] => [
    { role: 'system', content: 'sys' },
    { role: 'user', content: 'go' },
    ...toolExchange('c1', 'terminal', { command: 'cat big.log' }, lines(200)),
    ...toolExchange('c2', 'terminal', { command: 'cat big.log' }, lines(200)),
    ...toolExchange('c3', 'write_file', { path: 'a.ts', content: 'w'.repeat(9_000) }, 'ok'),
    { role: 'assistant', content: 'done' },
    { role: 'user', content: 'next' },
    ...toolExchange('c4', 'terminal', { command: 'ls' }, lines(150)),
  ];

  it('dedupes, summarizes and truncates only before the protected tail', () => {
    const input = build();
    const snapshot = structuredClone(input);
    const protectFrom = input.length - 3;
    const out = pruneToolResults(input, { protectFrom });
    expect(input).toEqual(snapshot);
    expect(out.deduplicated).toBe(1);
    expect(textOf(out.messages[3])).toMatch(/identical to a later result/);
    expect(textOf(out.messages[5])).toBe('[terminal] ran `cat big.log` -> 200 lines');
    const write = out.messages[6];
    const args = write?.role === 'assistant' ? write.tool_calls?.[0]?.function.arguments : '';
    expect(args?.length).toBeLessThan(2_000);
    expect(out.messages.at(-1)).toBe(input.at(-1));
    expect(out.messages[1]).toBe(input[1]);
    expect(out.reclaimedTokens).toBeGreaterThan(2_000);
  });

  it('returns the very input array when nothing changes', () => {
    const input: ChatMessage[] = [{ role: 'user', content: 'hi' }];
    const out = pruneToolResults(input, { protectFrom: 0 });
    expect(out.messages).toBe(input);
    expect(out.reclaimedTokens).toBe(0);
  });

  it('keeps only the last 3 images, and never touches the last user message', () => {
    const image = (n: number) => ({
      type: 'image_url' as const,
      image_url: { url: `https://example.test/${n}.png` },
    });
    const input: ChatMessage[] = [
      { role: 'user', content: [image(1), image(2)] },
      { role: 'assistant', content: 'seen' },
      { role: 'user', content: [image(3)] },
      { role: 'assistant', content: 'seen' },
      { role: 'user', content: [{ type: 'text', text: 'these' }, image(4), image(5)] },
    ];
    const out = pruneToolResults(input, { protectFrom: input.length });
    expect(out.droppedImages).toBe(2);
    expect(out.messages[4]).toBe(input[4]);
    expect(out.messages[2]).toBe(input[2]);
    const first = out.messages[0]?.content;
    expect(Array.isArray(first) && first.every((p) => p.type === 'text')).toBe(true);
  });
});
