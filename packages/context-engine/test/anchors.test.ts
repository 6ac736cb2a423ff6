import type { ChatMessage } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { ContextCompressor, MODEL_SECTIONS, parseSections, SUMMARY_PREFIX } from '../src/index.js';
import { scriptedSummarizer, toolExchange } from './support/conversations.js';

function conversationWithPaths(): ChatMessage[] {
  const messages: ChatMessage[] = [
    { role: 'system', content: 'You are the test agent.' },
    { role: 'user', content: 'Refactor the money module.' },
    { role: 'assistant', content: 'Starting.' },
    { role: 'user', content: 'Go.' },
    {
      role: 'assistant',
      content:
        'I edited src/money/add.ts. Then src/money/add.ts, and (src/money/sub.ts) plus ./scripts/run.sh: done. ' +
        'That is 1/10 of the steps, 3/4 of the tests pass, release on 2026/12/01, ratio 16/9, n/a.',
    },
    ...toolExchange('r1', 'read_file', { path: 'src/money/add.ts' }, 'export const add = 1;'),
  ];
  for (let i = 0; i < 10; i++) {
    messages.push({ role: 'assistant', content: `analysis ${i} ${'reasoning '.repeat(200)}` });
    messages.push({ role: 'user', content: `fine ${i}` });
  }
  for (let i = 0; i < 6; i++) {
    messages.push(
      { role: 'user', content: `next ${i}` },
      { role: 'assistant', content: `step ${i} ${'words '.repeat(60)}` },
    );
  }
  return messages;
}

const pathsOf = (summary: string | undefined) => {
  const anchors = parseSections(summary ?? '').get('Anchor Index') ?? '';
  const block = anchors.split(/\n(?=\w[\w ]*:$)/m).find((b) => b.startsWith('Paths:')) ?? '';
  return block
    .split('\n')
    .filter((l) => l.startsWith('- '))
    .map((l) => l.slice(2));
};

describe('the anchor index', () => {
  it('lists each path once, without trailing punctuation, and no fractions or dates', async () => {
    const engine = new ContextCompressor({ contextLength: 200_000, tailTokens: 300 });
    const result = await engine.compress(conversationWithPaths(), { force: true });
    expect(result.outcome).toBe('fallback');
    const paths = pathsOf(result.summary);
    expect(paths).toContain('src/money/add.ts');
    expect(paths).toContain('src/money/sub.ts');
    expect(paths).toContain('./scripts/run.sh');
    expect(paths.filter((p) => p.startsWith('src/money/add.ts'))).toEqual(['src/money/add.ts']);
    for (const notAPath of ['1/10', '3/4', '2026/12/01', '16/9', 'n/a']) {
      expect(paths).not.toContain(notAPath);
    }
    expect(paths.every((p) => !/[.,:;)]$/.test(p))).toBe(true);
  });

  it('keeps earlier anchors under their kind across compressions, still deduplicated', async () => {
    const engine = new ContextCompressor({
      contextLength: 200_000,
      tailTokens: 300,
      summarizer: scriptedSummarizer(),
    });
    const first = await engine.compress(conversationWithPaths(), { force: true });
    const more: ChatMessage[] = [
      ...first.messages,
      {
        role: 'assistant',
        content: `Also touched src/money/add.ts. and lib/fx.ts ${'w '.repeat(200)}`,
      },
      { role: 'user', content: 'continue' },
      { role: 'assistant', content: `done ${'w '.repeat(200)}` },
      { role: 'user', content: 'thanks' },
      ...Array.from({ length: 8 }, (_, i): ChatMessage[] => [
        { role: 'assistant', content: `later ${i} ${'w '.repeat(100)}` },
        { role: 'user', content: `more ${i}` },
      ]).flat(),
    ];
    const second = await engine.compress(more, { force: true });
    expect(second.outcome).toBe('summarized');
    const paths = pathsOf(second.summary);
    expect(paths).toContain('lib/fx.ts');
    expect(paths).toContain('src/money/sub.ts');
    expect(paths.filter((p) => p === 'src/money/add.ts')).toHaveLength(1);
  });

  it('sorts the flat "Earlier:" list of an older summary back into kinds, cleaned', async () => {
    const legacy = [
      SUMMARY_PREFIX,
      ...MODEL_SECTIONS.map((s) => `## ${s}\nNone`),
      '## Anchor Index\nPaths:\n- lib/old.ts.\nEarlier:\n- src/kept.ts\n- 3/4\n- npm run build\n- 9f86d081884c7d65',
      '## Detailed Session Log\n1. user: hi',
      '## User Messages (verbatim, newest first)\n> hi',
    ].join('\n\n');
    const messages: ChatMessage[] = [
      { role: 'system', content: 'sys' },
      { role: 'user', content: legacy },
      ...Array.from({ length: 12 }, (_, i): ChatMessage[] => [
        { role: 'assistant', content: `work ${i} ${'w '.repeat(600)}` },
        { role: 'user', content: `more ${i}` },
      ]).flat(),
    ];
    const engine = new ContextCompressor({ contextLength: 200_000, tailTokens: 300 });
    await engine.onSessionStart('s', { compressionCount: 1 });
    const result = await engine.compress(messages, { force: true });
    expect(result.changed).toBe(true);
    const anchors = parseSections(result.summary ?? '').get('Anchor Index') ?? '';
    expect(pathsOf(result.summary)).toEqual(['lib/old.ts', 'src/kept.ts']);
    expect(anchors).toMatch(/Commands:\n- npm run build/);
    expect(anchors).toMatch(/IDs:\n- 9f86d081884c7d65/);
    expect(anchors).not.toContain('Earlier:');
  });
});
