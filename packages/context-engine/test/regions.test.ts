import type { ChatMessage } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { ContextCompressor, findRegions } from '../src/index.js';
import { assertToolPairsIntact } from '../src/testing.js';
import { conversation, scriptedSummarizer, toolExchange } from './support/conversations.js';

/** A deterministic pseudo-random conversation with multi-call tool groups. */
function randomConversation(seed: number): ChatMessage[] {
  let state = seed;
  const rand = (n: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state % n;
  };
  const messages: ChatMessage[] = [{ role: 'system', content: 'sys' }];
  for (let i = 0; i < 40; i++) {
    const kind = rand(3);
    if (kind === 0) messages.push({ role: 'user', content: `u${i} ${'x'.repeat(rand(3_000))}` });
    else if (kind === 1)
      messages.push({ role: 'assistant', content: `a${i} ${'y'.repeat(rand(3_000))}` });
    else {
      const calls = 1 + rand(3);
      const ids = Array.from({ length: calls }, (_, c) => `c${i}_${c}`);
      messages.push({
        role: 'assistant',
        content: null,
        tool_calls: ids.map((id) => ({
          id,
          type: 'function',
          function: { name: 'terminal', arguments: '{"command":"ls"}' },
        })),
      });
      for (const id of ids)
        messages.push({
          role: 'tool',
          tool_call_id: id,
          name: 'terminal',
          content: 'z'.repeat(rand(4_000)),
        });
    }
  }
  messages.push({ role: 'user', content: 'last' });
  return messages;
}

describe('protected regions', () => {
  it('never cut inside a tool group, over many shapes and budgets', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const messages = randomConversation(seed);
      for (const tailTokens of [50, 500, 3_000]) {
        const r = findRegions(messages, {
          protectFirstN: seed % 4,
          tailTokens,
          tailMinMessages: seed % 9,
        });
        expect(messages[r.headEnd]?.role).not.toBe('tool');
        expect(messages[r.tailStart]?.role).not.toBe('tool');
        expect(r.headEnd).toBeLessThanOrEqual(r.tailStart);
      }
    }
  });

  it('keeps tool groups whole through real compressions', async () => {
    for (let seed = 1; seed <= 20; seed++) {
      const messages = randomConversation(seed);
      const engine = new ContextCompressor({
        contextLength: 200_000,
        tailTokens: 800,
        summarizer: scriptedSummarizer(),
      });
      const result = await engine.compress(messages, { force: true });
      assertToolPairsIntact(result.messages);
    }
  });

  it('always holds the last user and last assistant message in the tail', () => {
    const messages = conversation(10);
    messages.push(...toolExchange('late', 'terminal', { command: 'ls' }, 'q'.repeat(50_000)));
    const r = findRegions(messages, { protectFirstN: 3, tailTokens: 100, tailMinMessages: 1 });
    const lastAssistant = messages.findLastIndex((m) => m.role === 'assistant');
    expect(r.tailStart).toBeLessThanOrEqual(lastAssistant);
    // The last user message sits before the huge tool output: it is pinned, not summarized.
    expect(r.pinnedUser).toBe(messages.findLastIndex((m) => m.role === 'user'));
  });

  it('protects the system prompt and the first 3 messages in the head', () => {
    const messages = conversation(10);
    expect(findRegions(messages, { protectFirstN: 3, tailTokens: 100 }).headEnd).toBe(4);
    expect(findRegions(messages, { protectFirstN: 0, tailTokens: 100 }).headEnd).toBe(1);
  });
});
