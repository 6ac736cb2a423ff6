import { script } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { INTERRUPTED, queuedNotice, STEERED } from '../src/pipeline/notices.js';
import { type Harness, RecordingSink, startHarness, ToolGate } from './support/gateway-harness.js';

type Body = { messages: { role: string; content: unknown }[] };

function messagesOf(h: Harness, index: number): { role: string; content: unknown }[] {
  return (h.server.requests[index]?.body as Body | undefined)?.messages ?? [];
}

function lastUser(h: Harness, index: number): string {
  const users = messagesOf(h, index).filter((m) => m.role === 'user');
  return JSON.stringify(users.at(-1)?.content ?? '');
}

describe('busy policies (a message for a session whose turn is running)', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('steer (the default): the message joins the running turn; the user is told', async () => {
    const gate = new ToolGate();
    h = await startHarness(script().toolCall('hold').next().text('Done, in metric.'), {
      tools: [gate.tool],
    });
    await h.say('measure the room');
    await gate.waitEntered();
    await h.say('in metric please');
    expect(h.texts()).toContain(STEERED);
    gate.release();
    await h.gateway.settled();
    // One turn, two model calls: the steer rode on the tool result into the second call.
    expect(h.server.requests).toHaveLength(2);
    const toolMessage = messagesOf(h, 1).find((m) => m.role === 'tool');
    expect(JSON.stringify(toolMessage?.content)).toContain('in metric please');
    expect(h.texts()).toContain('Done, in metric.');
  });

  it('a steer that never reached the model runs as the next turn, so nothing is lost', async () => {
    h = await startHarness(
      script()
        .text('First answer, streamed slowly over many frames.')
        .delay(300)
        .next()
        .text('About the steer.'),
    );
    await h.say('first');
    // The answer is streaming (edited in place): the turn runs, and no tool result will come
    // to carry a steer, so the note is left over when the turn ends.
    await h.waitForSent((text) => text.startsWith('First'));
    // Normally the steer is taken while the answer streams (the frames come 300 ms apart) and
    // left over; on a machine so slow that the turn ended first it is a plain next message. The
    // outcome asserted is the same either way, so the test never depends on the timing.
    await h.say('and one more thing');
    await h.gateway.settled();
    expect(h.server.requests).toHaveLength(2);
    expect(lastUser(h, 1)).toContain('and one more thing');
    expect(h.texts()).toContain('About the steer.');
  });

  it('interrupt: the running turn stops and the new message runs next; the user is told', async () => {
    const gate = new ToolGate();
    h = await startHarness(script().toolCall('hold').next().text('Answer to the second.'), {
      tools: [gate.tool],
      gateway: { allowed_users: ['u1'], busy_policy: 'interrupt' },
    });
    await h.say('first, slow');
    await gate.waitEntered();
    await h.say('second, urgent');
    expect(h.texts()).toContain(INTERRUPTED);
    await h.gateway.settled();
    // The held tool saw the interrupt (never released); the second message then ran.
    expect(h.server.requests).toHaveLength(2);
    expect(lastUser(h, 1)).toContain('second, urgent');
    expect(h.texts()).toContain('Answer to the second.');
  });

  it('queue: messages run after the running turn, in order; the user is told how many are ahead', async () => {
    const gate = new ToolGate();
    h = await startHarness(
      script()
        .toolCall('hold')
        .next()
        .text('First done.')
        .next()
        .text('Second done.')
        .next()
        .text('Third done.'),
      { tools: [gate.tool], gateway: { allowed_users: ['u1'], busy_policy: 'queue' } },
    );
    await h.say('first');
    await gate.waitEntered();
    await h.say('second');
    await h.say('third');
    expect(h.texts()).toContain(queuedNotice(1));
    expect(h.texts()).toContain(queuedNotice(2));
    expect(h.gateway.health().queuedMessages).toBe(2);
    gate.release();
    await h.gateway.settled();
    const texts = h.texts();
    const order = ['First done.', 'Second done.', 'Third done.'].map((t) => texts.indexOf(t));
    expect(order.every((index) => index >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(lastUser(h, 2)).toContain('second');
    expect(lastUser(h, 3)).toContain('third');
  });

  it('a message with its own sink is queued whatever the policy: its client needs its own answer', async () => {
    const gate = new ToolGate();
    h = await startHarness(
      script().toolCall('hold').next().text('Chat answer.').next().text('API answer.'),
      {
        tools: [gate.tool],
      },
    );
    await h.say('from chat');
    await gate.waitEntered();
    const sink = new RecordingSink();
    await h.ask('from the api', { sink }, { chatId: 'dm-1' });
    expect(sink.notices).toContain(queuedNotice(1));
    gate.release();
    await sink.settled;
    expect(sink.outcome?.text).toBe('API answer.');
  });

  it('other sessions run in parallel while one is busy', async () => {
    const gate = new ToolGate();
    h = await startHarness(
      script()
        .toolCall('hold')
        .match({ lastUserIncludes: 'slow' })
        .next()
        .text('Fast answer.')
        .match({ lastUserIncludes: 'fast' })
        .next()
        .text('Slow answer.'),
      { tools: [gate.tool], gateway: { allowed_users: ['u1', 'u2'] } },
    );
    await h.say('slow one');
    await gate.waitEntered();
    await h.say('fast one', { userId: 'u2', chatId: 'dm-2' });
    await h.waitForSent((text) => text === 'Fast answer.', 'dm-2');
    expect(h.gateway.health().runningTurns).toBe(1);
    gate.release();
    await h.gateway.settled();
    expect(h.texts('dm-1')).toContain('Slow answer.');
  });
});
