import type { ChatMessage } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { ContextCompressor, parseSections } from '../src/index.js';
import { conversation, scriptedSummarizer, templateSummary } from './support/conversations.js';

/** `turns` more user/assistant turns, labelled so they are told apart from earlier ones. */
function moreTurns(label: string, turns: number): ChatMessage[] {
  return Array.from({ length: turns }, (_, i): ChatMessage[] => [
    { role: 'user', content: `${label} request ${i}: keep going with step ${i}.` },
    { role: 'assistant', content: `${label} answer ${i}. ${'working '.repeat(60)}` },
  ]).flat();
}

const REGION = 'Which region should the deploy target?';
const STAGING = 'Is the staging database shared?';

describe('an update can clear or replace a section', () => {
  it('empties Open Questions and Pending TODOs when the update says None, and they stay gone', async () => {
    const summarizer = scriptedSummarizer((_r, call) => {
      if (call === 1) {
        return templateSummary('1. Fix the deploy', {
          'Open Questions': `- ${REGION}`,
          'Pending TODOs (verbatim)': '> "add a health check"',
        });
      }
      if (call === 2) {
        return templateSummary('1. Fix the deploy', {
          'Open Questions': 'None',
          'Resolved Questions': `- ${REGION} → eu-west-1`,
          'Pending TODOs (verbatim)': 'None',
        });
      }
      // The third update replaces Goals and leaves Open Questions out entirely.
      return templateSummary('1. Ship v2 of the API', {}).replace(
        /## Open Questions\nNone\n\n/,
        '',
      );
    });
    const engine = new ContextCompressor({
      contextLength: 200_000,
      tailTokens: 300,
      maxAttemptsPerTurn: 10,
      summarizer,
    });
    const first = await engine.compress(conversation(10), { force: true });
    const second = await engine.compress([...first.messages, ...moreTurns('second', 8)], {
      force: true,
    });
    const afterTwo = parseSections(second.summary ?? '');
    expect(afterTwo.get('Open Questions')).toBe('None');
    expect(afterTwo.get('Resolved Questions')).toContain(REGION);
    expect(afterTwo.get('Pending TODOs (verbatim)')).toBe('None');

    const third = await engine.compress([...second.messages, ...moreTurns('third', 8)], {
      force: true,
    });
    const afterThree = parseSections(third.summary ?? '');
    expect(afterThree.get('Goals')).toBe('1. Ship v2 of the API');
    expect(afterThree.get('Pending TODOs (verbatim)')).toBe('None');
    // A heading the update left out keeps what it held (here: nothing open).
    expect(afterThree.get('Open Questions')).toBe('None');
    expect(third.summary).not.toContain('health check');
  });

  it('drops a question from Open Questions once it is listed under Resolved Questions', async () => {
    const summarizer = scriptedSummarizer((_r, call) =>
      call === 1
        ? templateSummary('1. Fix the deploy', { 'Open Questions': `- ${REGION}\n- ${STAGING}` })
        : templateSummary('1. Fix the deploy', {
            'Open Questions': `1. ${REGION}\n2. ${STAGING}`,
            'Resolved Questions': `- ${REGION.toLowerCase()} Answer: eu-west-1.`,
          }),
    );
    const engine = new ContextCompressor({ contextLength: 200_000, tailTokens: 300, summarizer });
    const first = await engine.compress(conversation(10), { force: true });
    const second = await engine.compress([...first.messages, ...moreTurns('later', 8)], {
      force: true,
    });
    const sections = parseSections(second.summary ?? '');
    expect(sections.get('Open Questions')).toBe(`2. ${STAGING}`);
    expect(sections.get('Resolved Questions')).toContain('eu-west-1');
  });

  it('tells the summarizer that a section it writes replaces the old one', async () => {
    const summarizer = scriptedSummarizer();
    const engine = new ContextCompressor({ contextLength: 200_000, tailTokens: 300, summarizer });
    const first = await engine.compress(conversation(10), { force: true });
    await engine.compress([...first.messages, ...moreTurns('later', 8)], { force: true });
    const prompt = summarizer.requests[1]?.prompt ?? '';
    expect(prompt).toMatch(/replaces/i);
    expect(prompt).toMatch(/"None"/);
  });
});

describe('newest-first lists are ordered by message position', () => {
  it('lists user messages newest first and the log oldest first after two compressions', async () => {
    const engine = new ContextCompressor({
      contextLength: 200_000,
      tailTokens: 300,
      summarizer: scriptedSummarizer(),
    });
    const first = await engine.compress(conversation(10), { force: true });
    // The original request stayed in the protected head the first time.
    expect(first.summarizedRange?.start).toBe(4);
    const history = [...first.messages, ...moreTurns('later', 8)];
    const second = await engine.compress(history, { force: true });
    const sections = parseSections(second.summary ?? '');

    const users = sections.get('User Messages (verbatim, newest first)') ?? '';
    const expected = [
      ...Array.from({ length: 8 }, (_, i) => `later request ${i}:`).reverse(),
      'Final request: summarize',
      ...Array.from({ length: 10 }, (_, i) => `Request ${i}:`).reverse(),
    ].filter((m) => users.includes(m));
    expect(expected).toContain('Request 0:');
    expect(expected).toContain('Request 5:');
    const positions = expected.map((m) => users.indexOf(m));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));

    const log = sections.get('Detailed Session Log') ?? '';
    const request0 = log.indexOf('Request 0:');
    const request5 = log.indexOf('Request 5:');
    const later = log.indexOf('later request');
    expect(request0).toBeGreaterThan(-1);
    expect(request0).toBeLessThan(request5);
    expect(request5).toBeLessThan(later);
  });
});
