import { script } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { STEERED } from '../src/pipeline/notices.js';
import { type Harness, RecordingSink, startHarness, ToolGate } from './support/gateway-harness.js';

type Body = { model: string; messages: { role: string; content: unknown }[] };

function contents(h: Harness, index: number): string {
  const body = h.server.requests[index]?.body as Body | undefined;
  return JSON.stringify(body?.messages ?? []);
}

const last = (h: Harness) => h.texts().at(-1) ?? '';

describe('slash commands', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('/help lists all twelve commands, and no command reaches the model', async () => {
    h = await startHarness(script().text('unused'));
    await h.say('/help');
    const help = h.texts().join('\n');
    for (const name of [
      'new',
      'stop',
      'steer',
      'approve',
      'deny',
      'status',
      'usage',
      'compress',
      'model',
      'learn',
      'rollback',
      'help',
    ]) {
      expect(help).toContain(`/${name}`);
    }
    expect(h.server.requests).toHaveLength(0);
    expect(h.builds).toHaveLength(0);
  });

  it('/learn and /rollback say so when the app did not wire them', async () => {
    h = await startHarness(script().text('unused'));
    await h.say('/learn');
    expect(h.texts().at(-1)).toBe('Learning is not available on this gateway.');
    await h.say('/rollback 2');
    expect(h.texts().at(-1)).toBe('Checkpoints are not available on this gateway.');
    expect(h.server.requests).toHaveLength(0);
  });

  it('an unknown /word is not a command: it goes to the model as text', async () => {
    h = await startHarness(script().text('Skill output.'));
    await h.say('/summarize-repo please');
    await h.gateway.settled();
    expect(contents(h, 0)).toContain('/summarize-repo please');
    expect(h.texts()).toContain('Skill output.');
  });

  it('/status shows the session, model, state, queue and cache', async () => {
    const gate = new ToolGate();
    h = await startHarness(
      script().toolCall('hold').next().text('First done.').text('Second done.'),
      {
        tools: [gate.tool],
        gateway: { allowed_users: ['u1'], busy_policy: 'queue' },
      },
    );
    await h.say('/status');
    expect(last(h)).toContain('Session: new');
    expect(last(h)).toContain('State: idle');
    expect(last(h)).toContain('Cached agents: 0');

    await h.say('first');
    await gate.waitEntered();
    await h.say('second');
    await h.say('/status');
    const running = last(h);
    expect(running).toContain('State: running');
    expect(running).toContain('Queued: 1');
    expect(running).toContain('Model: m');
    expect(running).toContain('Cached agents: 1');
    const sessionId = /Session: (\S+)/.exec(running)?.[1];
    expect(sessionId).toMatch(/\S/);
    expect(sessionId).not.toBe('new');

    gate.release();
    await h.gateway.settled();
    await h.say('/status');
    expect(last(h)).toContain('State: idle');
    expect(last(h)).toContain(`Session: ${sessionId}`);
  });

  it("/usage reports the session's tokens over its turns", async () => {
    h = await startHarness(
      script()
        .text('One.')
        .usage({ inputTokens: 120, outputTokens: 30 })
        .next()
        .text('Two.')
        .usage({ inputTokens: 200, outputTokens: 5 }),
    );
    await h.say('/usage');
    expect(last(h)).toContain('No usage recorded');
    await h.say('one');
    await h.gateway.settled();
    await h.say('two');
    await h.gateway.settled();
    await h.say('/usage');
    expect(last(h)).toContain('2 turns, 2 model calls');
    expect(last(h)).toContain('in 320 · out 35');
    expect(last(h)).toContain('Cost: ~$');
    // The cached agent's conversation: two exchanges, and how full the model's window is.
    expect(last(h)).toMatch(/^Context: ~\d[\d,]* tokens( of [\d,]+ \(\d+%\))?, 4 messages$/m);
    expect(last(h)).not.toContain('Side tasks');
  });

  it('/usage lists the side tasks the agent ran, per auxiliary slot', async () => {
    h = await startHarness(
      script()
        .text('One.')
        .next()
        .text('Trip planning')
        .usage({ inputTokens: 50, outputTokens: 2 }),
    );
    await h.say('one');
    await h.gateway.settled();
    const [created] = h.created;
    await created?.auxiliary.for('title').chat({
      model: 'm',
      messages: [{ role: 'user', content: 'Title this conversation.' }],
    });
    await h.say('/usage');
    expect(last(h)).toContain('Side tasks (this agent):');
    expect(last(h)).toContain('title: 1 call · in 50 · out 2 · ~$');
  });

  it('/model shows the model; /model name rebuilds the agent on it and keeps the conversation', async () => {
    h = await startHarness(script().text('On m.').next().text('On other.'));
    await h.say('/model');
    expect(last(h)).toBe('Model: m');
    await h.say('remember the word pelican');
    await h.gateway.settled();
    await h.say('/model other-model');
    expect(last(h)).toContain('other-model');
    await h.say('which word?');
    await h.gateway.settled();
    expect(h.server.requests[1]?.model).toBe('other-model');
    expect(contents(h, 1)).toContain('remember the word pelican');
    const rebuilt = h.builds.at(-1);
    expect(rebuilt?.model).toBe('other-model');
    expect(rebuilt?.sessionId).toBeDefined();
    await h.say('/model');
    expect(last(h)).toBe('Model: other-model');
  });

  it('/new starts a fresh session: the next turn does not see the old one', async () => {
    h = await startHarness(script().text('Noted.').next().text('Fresh.'));
    await h.say('my name is Ada');
    await h.gateway.settled();
    await h.say('/new');
    expect(last(h)).toContain('Started a new conversation');
    await h.say('what is my name?');
    await h.gateway.settled();
    expect(contents(h, 1)).not.toContain('my name is Ada');
    expect(h.builds.at(-1)?.sessionId).toBeUndefined();
    expect(h.closed.count).toBe(1);
  });

  it('/stop interrupts the running turn and drops queued messages', async () => {
    const gate = new ToolGate();
    h = await startHarness(script().toolCall('hold').next().text('never sent'), {
      tools: [gate.tool],
      gateway: { allowed_users: ['u1'], busy_policy: 'queue' },
    });
    await h.say('/stop');
    expect(last(h)).toBe('Nothing is running.');
    await h.say('long job');
    await gate.waitEntered();
    await h.say('queued one');
    const sink = new RecordingSink();
    await h.ask('queued from the api', { sink }, { chatId: 'dm-1' });
    await h.say('/stop');
    expect(last(h)).toBe('⏹ Stopped (2 queued messages dropped).');
    await sink.settled;
    expect(sink.failure?.code).toBe('gateway.stopped');
    await h.gateway.settled();
    // The held tool saw the interrupt; no model call followed it, and the queued message never ran.
    expect(h.server.requests).toHaveLength(1);
    expect(h.server.remaining()).toBe(1);
  });

  it('/steer adds a note to the running turn; with nothing running it says so', async () => {
    const gate = new ToolGate();
    h = await startHarness(script().toolCall('hold').next().text('Adjusted.'), {
      tools: [gate.tool],
    });
    await h.say('/steer use metric units');
    expect(last(h)).toContain('Nothing is running');
    await h.say('convert 3 miles');
    await gate.waitEntered();
    await h.say('/steer use metric units');
    expect(last(h)).toBe(STEERED);
    gate.release();
    await h.gateway.settled();
    expect(contents(h, 1)).toContain('use metric units');
    expect(h.texts()).toContain('Adjusted.');
  });

  it('/approve and /deny with nothing pending say so', async () => {
    h = await startHarness(script().text('unused'));
    await h.say('/approve');
    expect(last(h)).toBe('Nothing is waiting for your approval.');
    await h.say('/deny');
    expect(last(h)).toBe('Nothing is waiting for your approval.');
    await h.say('/approve forever');
    expect(last(h)).toContain('Usage: /approve');
  });

  it('/compress with nothing stored yet says so, and a short conversation stays as it is', async () => {
    h = await startHarness(script().text('First answer.').next().text('Second answer.'));
    await h.say('/compress');
    expect(last(h)).toBe('There is no conversation to compress yet.');
    await h.say('first question');
    await h.gateway.settled();
    await h.say('second question');
    await h.gateway.settled();
    await h.say('/compress');
    expect(last(h)).toBe('Nothing to compress: the conversation is already as short as it gets.');
  });

  it('/compress summarizes a long conversation with the model', async () => {
    h = await startHarness(
      script().text('Continuing.').next().text('A summary of the long talk about birds.'),
    );
    // About 30K tokens: well past the compressor's protected head and 10K-token tail.
    const history = Array.from({ length: 60 }, (_, i) => ({
      role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
      content: `message ${i} about birds: ${'the heron waits by the water. '.repeat(70)}`,
    }));
    const seeded = new RecordingSink();
    await h.ask('continue', { sink: seeded, history }, { chatId: 'dm-1' });
    await seeded.settled;
    await h.say('/compress birds');
    expect(last(h)).toMatch(/^🗜 Compressed \d+ → \d+ messages/);
    const summaryRequest = JSON.stringify(h.server.requests[1]?.body ?? {});
    expect(summaryRequest).toContain('birds');
  });

  it('a command with its own sink gets the answer as its outcome', async () => {
    h = await startHarness(script().text('unused'));
    const sink = new RecordingSink();
    await h.ask('/status', { sink });
    await sink.settled;
    expect(sink.outcome?.text).toContain('State: idle');
    expect(sink.outcome?.failed).toBe(false);
  });
});
