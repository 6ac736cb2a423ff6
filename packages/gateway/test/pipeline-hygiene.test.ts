import { script } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, RecordingSink, startHarness } from './support/gateway-harness.js';

type Body = { messages: { role: string; content: unknown }[] };

/** About 30K tokens of conversation: far past the compressor's protected head and tail. */
function longHistory() {
  return Array.from({ length: 60 }, (_, i) => ({
    role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
    content: `message ${i} about birds: ${'the heron waits by the water. '.repeat(70)}`,
  }));
}

describe('hygiene compression before the turn', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('a session past max_messages is compressed before the next turn, and the user is told', async () => {
    h = await startHarness(
      script()
        .text('Seeded.')
        .next()
        .text('A summary of the long talk about birds.')
        .next()
        .text('Answered on the compressed session.'),
      { gateway: { allowed_users: ['u1'], hygiene: { max_messages: 50 } } },
    );
    const seeded = new RecordingSink();
    await h.ask('continue', { sink: seeded, history: longHistory() }, { chatId: 'dm-1' });
    await seeded.settled;
    await h.say('and now?');
    await h.gateway.settled();
    expect(
      h.texts().some((t) => t.startsWith('Compressed this long conversation before answering')),
    ).toBe(true);
    // Request 1 is the summary; the turn's request (2) carries the summary, not the 60 messages.
    expect(h.server.requests).toHaveLength(3);
    const turn = h.server.requests[2]?.body as Body;
    expect(turn.messages.length).toBeLessThan(60);
    expect(h.texts().at(-1)).toBe('Answered on the compressed session.');
  });

  it('a short session is left alone', async () => {
    h = await startHarness(script().text('One.').next().text('Two.'), {
      gateway: { allowed_users: ['u1'], hygiene: { max_messages: 50 } },
    });
    await h.say('one');
    await h.gateway.settled();
    await h.say('two');
    await h.gateway.settled();
    expect(h.server.requests).toHaveLength(2);
    expect(h.texts().some((t) => t.startsWith('Compressed'))).toBe(false);
  });
});
