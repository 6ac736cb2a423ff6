import type { ChatMessage } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { ContextCompressor, estimateTokens } from '../src/index.js';
import { assertToolPairsIntact } from '../src/testing.js';
import { scriptedSummarizer, templateSummary, toolExchange } from './support/conversations.js';

/** About 91,000 tokens, nearly all of it old tool output that phase 1 can shorten. */
function bulkyPrompt(): ChatMessage[] {
  const messages: ChatMessage[] = [
    { role: 'system', content: 'You are the test agent.' },
    { role: 'user', content: 'Find out why the nightly export is slow.' },
  ];
  for (let i = 0; i < 18; i++) {
    const output = `exit code: 0\n${`row ${i} ${'data '.repeat(14)}\n`.repeat(250)}`;
    messages.push(
      ...toolExchange(`q${i}`, 'terminal', { command: `psql -f query${i}.sql` }, output),
    );
  }
  for (let i = 0; i < 4; i++) {
    messages.push(
      { role: 'assistant', content: `Finding ${i}: the export scans the events table.` },
      { role: 'user', content: `And what about part ${i}?` },
    );
  }
  return messages;
}

describe('a summary rejected for its length', () => {
  it('still keeps the phase-1 pruning, with a warning that says so', async () => {
    // Longer than the (pruned) span it would replace, far shorter than the raw prompt.
    const summarizer = scriptedSummarizer(() => templateSummary('x'.repeat(16_000)));
    const engine = new ContextCompressor({ contextLength: 200_000, tailTokens: 500, summarizer });
    const input = bulkyPrompt();
    const before = estimateTokens(input);
    expect(before).toBeGreaterThan(85_000);
    const result = await engine.compress(input, { force: true, currentTokens: 91_000 });
    expect(summarizer.requests).toHaveLength(1);
    expect(result.outcome).toBe('summary_too_long');
    expect(result.changed).toBe(true);
    expect(result.summary).toBeUndefined();
    expect(result.messages).toHaveLength(input.length);
    expect(estimateTokens(result.messages)).toBeLessThan(before * 0.15);
    expect(result.stats.tokensAfter).toBeLessThan(13_000);
    assertToolPairsIntact(result.messages);
    expect(result.messages.at(-1)).toBe(input.at(-1));
    expect(result.warnings.join(' ')).toMatch(/summary .*longer than .*replaced/i);
    expect(result.warnings.join(' ')).toMatch(/tool outputs .*shortened/i);
    // No summary was written: this does not count as a compression.
    expect(result.session.compressionCount).toBe(0);
  });

  it('leaves the messages unchanged when phase 1 had nothing to shorten either', async () => {
    const summarizer = scriptedSummarizer(() => templateSummary('x'.repeat(400_000)));
    const engine = new ContextCompressor({ contextLength: 200_000, tailTokens: 500, summarizer });
    const input: ChatMessage[] = [{ role: 'system', content: 'sys' }];
    for (let i = 0; i < 20; i++) {
      input.push(
        { role: 'user', content: `question ${i} ${'words '.repeat(40)}` },
        { role: 'assistant', content: `answer ${i} ${'words '.repeat(40)}` },
      );
    }
    const result = await engine.compress(input, { force: true });
    expect(result.outcome).toBe('summary_too_long');
    expect(result.changed).toBe(false);
    expect(result.messages).toEqual(input);
  });
});
