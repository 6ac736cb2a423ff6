// The ContextCompressor example from README.md, kept here so it is proven to compile and pass.
import {
  ContextCompressor,
  compressOptionsFor,
  MODEL_SECTIONS,
  type Summarizer,
} from '@hermes/context-engine';
import type { ChatMessage } from '@hermes/protocol';
import { expect, it } from 'vitest';

// Normally a call to the main (or auxiliary) model; here a scripted one.
const summarizer: Summarizer = async ({ maxTokens }) =>
  MODEL_SECTIONS.map(
    (s) => `## ${s}\n${s === 'Goals' ? `1. Fix the build (${maxTokens})` : 'None'}`,
  ).join('\n\n');

const engine = new ContextCompressor({ contextLength: 200_000, summarizer, tailTokens: 300 });

const messages: ChatMessage[] = [{ role: 'system', content: 'You are Hermes.' }];
for (let i = 0; i < 20; i++) {
  messages.push({ role: 'user', content: `step ${i}: fix the next build error` });
  messages.push({ role: 'assistant', content: `Fixed error ${i}. ${'analysis '.repeat(300)}` });
}

/** What the agent loop does before a request. */
async function compactIfNeeded(promptTokens: number) {
  if (!engine.shouldCompress(promptTokens)) return undefined; // 150,000 for a 200K window
  const options = compressOptionsFor(engine, { currentTokens: promptTokens, focusTopic: 'build' });
  const result = await engine.compress(messages, options);
  if (result.changed) {
    // store.archiveAndCompact(sessionId, { replacement: result.messages });
    // store.incrementCounters(sessionId, { compressions: 1 });
    // store.updateSession(sessionId, {
    //   compressionCooldownUntil: result.session.compressionCooldownUntil,
    //   compressionFailureStreak: result.session.compressionFailureStreak,
    // });
    // result.warnings.forEach(showToUser);
  }
  return result;
}

it('README ContextCompressor example', async () => {
  expect(await compactIfNeeded(100_000)).toBeUndefined();
  const result = await compactIfNeeded(160_000);
  expect(result?.changed).toBe(true);
  expect(result?.summary).toMatch(/1\. Fix the build \(\d+\)/);
  expect(result?.messages.length).toBeLessThan(messages.length);
});
