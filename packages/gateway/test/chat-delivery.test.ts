import { HermesError } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { PROVIDER_ERROR_SENTENCES } from '../src/delivery/provider-error-sentence.js';
import {
  deliveryFixture,
  delta,
  outcome,
  ruling,
  toolEnd,
  toolStart,
  until,
} from './support/delivery-fixture.js';

const words = (n: number, word = 'word') => Array.from({ length: n }, (_, i) => `${word}${i}`);

describe('ChatDelivery: streaming by editing in place', () => {
  it('sends the first text at once, then edits at most once per editIntervalMs, and the final edit lands', async () => {
    const { clock, adapter, delivery, store } = await deliveryFixture();
    delivery.event(delta('Hello '));
    await delivery.settled();
    expect(adapter.sent.map((m) => m.text)).toEqual(['Hello']);

    for (let i = 0; i < 40; i++) {
      clock.advance(100);
      delivery.event(delta(`w${i} `));
      await delivery.settled();
    }
    expect(adapter.sent).toHaveLength(1);
    // 4 s of streaming after the first send: four throttled edits at most.
    expect(adapter.editTimes.length).toBeGreaterThanOrEqual(3);
    expect(adapter.editTimes.length).toBeLessThanOrEqual(4);
    const gaps = adapter.editTimes.slice(1).map((t, i) => t - (adapter.editTimes[i] ?? 0));
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(1_000);

    delivery.event(delta('end.'));
    await delivery.settled();
    const editsBefore = adapter.editTimes.length;
    expect(clock.pending).toBe(1); // 'end.' waits for the next interval
    const final = `Hello ${words(40, 'w').join(' ')} end.`;
    delivery.finish(outcome(final));
    await delivery.done;
    // The final edit lands at once, without waiting for the interval.
    expect(adapter.editTimes.slice(editsBefore)).toEqual([clock.now()]);
    expect(clock.pending).toBe(0);
    expect(adapter.sent.map((m) => m.text)).toEqual([final]);
    expect(store.deliveries.size).toBe(0);
    expect(store.closed.map((c) => c.how)).toEqual(['completed']);
  });

  it('freezes a message that reached the limit and continues in a new one, never over the limit', async () => {
    const { clock, adapter, delivery } = await deliveryFixture({ maxMessageLength: 60 });
    const editsAtSend: number[] = [];
    adapter.onSend = () => {
      editsAtSend.push(adapter.edits.length);
    };
    const all = words(60);
    for (const word of all) {
      delivery.event(delta(`${word} `));
      clock.advance(250);
      await delivery.settled();
    }
    delivery.finish(outcome(all.join(' ')));
    await delivery.done;
    expect(adapter.sent.length).toBeGreaterThan(5);
    for (const message of adapter.sent) expect(message.text.length).toBeLessThanOrEqual(60);
    expect(adapter.sent.map((m) => m.text).join(' ')).toBe(all.join(' '));
    // Once a later message exists, an earlier one is never edited again.
    const order = adapter.sent.map((m) => m.messageId);
    adapter.edits.forEach((edit, editIndex) => {
      const message = order.indexOf(edit.messageId);
      const nextSentAt = editsAtSend[message + 1];
      if (nextSentAt !== undefined) expect(editIndex).toBeLessThan(nextSentAt);
    });
    expect(adapter.edits.length).toBeGreaterThan(0);
  });

  it('never shows a key that is still arriving, not even between edits', async () => {
    const { clock, adapter, delivery } = await deliveryFixture();
    const key = 'sk-proj-Abcdefghijklmnopqrstuvwx0123456789';
    delivery.event(delta('Your key is '));
    await delivery.settled();
    for (const piece of [key.slice(0, 6), key.slice(6, 14), key.slice(14), ' keep it safe.']) {
      clock.advance(1_000);
      delivery.event(delta(piece));
      await delivery.settled();
    }
    delivery.finish(outcome(`Your key is ${key} keep it safe.`));
    await delivery.done;
    const shown = [...adapter.edits.map((e) => e.text), ...adapter.sent.map((m) => m.text)];
    for (const text of shown) {
      expect(text).not.toContain('sk-pro');
      expect(text).not.toContain(key.slice(6, 14));
    }
    expect(adapter.sent[0]?.text).toBe('Your key is [REDACTED] keep it safe.');
  });

  it('keeps to the interval while edits fail, and still lands the final text', async () => {
    const { clock, adapter, delivery } = await deliveryFixture();
    delivery.event(delta('Hello '));
    await delivery.settled();
    adapter.editFailure = new Error('502 from the platform');
    for (let i = 0; i < 30; i++) {
      delivery.event(delta(`w${i} `));
      clock.advance(100);
      await delivery.settled();
    }
    // 3 s of deltas every 100 ms: one try per interval, not one per delta.
    expect(adapter.editAttempts).toBeGreaterThanOrEqual(2);
    expect(adapter.editAttempts).toBeLessThanOrEqual(3);
    adapter.editFailure = undefined;
    const final = `Hello ${words(30, 'w').join(' ')}`;
    delivery.finish(outcome(final));
    await delivery.done;
    expect(adapter.sent.map((m) => m.text)).toEqual([final]);
  });

  it('renders through the adapter before splitting', async () => {
    const { adapter, delivery } = await deliveryFixture({ canEdit: false });
    adapter.renderMarkdown = (text: string) => text.toUpperCase();
    delivery.finish(outcome('shout this'));
    await delivery.done;
    expect(adapter.sent.map((m) => m.text)).toEqual(['SHOUT THIS']);
  });
});

describe('ChatDelivery: sending at the end', () => {
  it('without edit, sends nothing until the end, then every part through the ledger', async () => {
    const { adapter, delivery, store } = await deliveryFixture({
      canEdit: false,
      maxMessageLength: 40,
    });
    const text = words(20).join(' ');
    for (const word of words(20)) delivery.event(delta(`${word} `));
    await delivery.settled();
    expect(adapter.sent).toHaveLength(0);

    const ledgerAtSend: Array<{ entries: number; sentParts: number | undefined }> = [];
    adapter.onSend = () => {
      const entries = [...store.deliveries.values()];
      ledgerAtSend.push({ entries: entries.length, sentParts: entries[0]?.sentParts });
    };
    delivery.finish(outcome(text));
    await delivery.done;
    expect(adapter.sent.length).toBeGreaterThan(2);
    expect(adapter.sent.map((m) => m.text).join(' ')).toBe(text);
    // In the ledger before the first part, progress recorded per part, gone at the end.
    expect(ledgerAtSend).toEqual(adapter.sent.map((_, i) => ({ entries: 1, sentParts: i })));
    expect(store.deliveries.size).toBe(0);
    expect(store.closed[0]?.delivery.text).toBe(text);
  });

  it('with streaming disabled, a platform that can edit also gets the reply at the end', async () => {
    const { adapter, delivery } = await deliveryFixture(
      {},
      { stream: { enabled: false, editIntervalMs: 1_000 } },
    );
    delivery.event(delta('one two three'));
    await delivery.settled();
    expect(adapter.sent).toHaveLength(0);
    delivery.finish(outcome('one two three'));
    await delivery.done;
    expect(adapter.sent.map((m) => m.text)).toEqual(['one two three']);
    expect(adapter.edits).toHaveLength(0);
  });

  it('sends notices as their own messages, redacted', async () => {
    const { adapter, delivery } = await deliveryFixture({ canEdit: false });
    delivery.notice('Queued behind the running turn. token=abc123def456');
    await delivery.settled();
    expect(adapter.sent.map((m) => m.text)).toEqual([
      'Queued behind the running turn. token=[REDACTED]',
    ]);
  });
});

describe('ChatDelivery: tool progress', () => {
  const calls = [
    toolStart('terminal', { command: 'ls -la' }, 'a'),
    toolEnd('terminal', 'ok', 'a'),
    toolStart('terminal', { command: 'cat notes.txt' }, 'b'),
    toolEnd('terminal', 'ok', 'b'),
    toolStart('read_file', { path: 'src/app.ts' }, 'c'),
    toolEnd('read_file', 'ok', 'c'),
    toolStart('terminal', { command: 'pwd' }, 'd'),
    toolEnd('terminal', 'error', 'd'),
  ];

  it('all: one line per call, each its own message where the platform cannot edit', async () => {
    const { adapter, delivery } = await deliveryFixture({ canEdit: false });
    for (const event of calls) delivery.event(event);
    await delivery.settled();
    expect(adapter.sent.map((m) => m.text)).toEqual([
      '💻 terminal: ls -la',
      '💻 terminal: cat notes.txt',
      '📖 read_file: src/app.ts',
      '💻 terminal: pwd',
    ]);
  });

  it('new: a line only when the tool differs from the previous one', async () => {
    const { adapter, delivery } = await deliveryFixture(
      { canEdit: false },
      { toolProgress: 'new' },
    );
    for (const event of calls) delivery.event(event);
    await delivery.settled();
    expect(adapter.sent.map((m) => m.text)).toEqual([
      '💻 terminal: ls -la',
      '📖 read_file: src/app.ts',
      '💻 terminal: pwd',
    ]);
  });

  it('off: no lines', async () => {
    const { adapter, delivery } = await deliveryFixture(
      { canEdit: false },
      { toolProgress: 'off' },
    );
    for (const event of calls) delivery.event(event);
    delivery.finish(outcome('done'));
    await delivery.done;
    expect(adapter.sent.map((m) => m.text)).toEqual(['done']);
  });

  it('where it can edit, keeps the lines in one message, marks a failed call, and keeps them apart from the text', async () => {
    const { clock, adapter, delivery } = await deliveryFixture();
    delivery.event(delta('Let me look. '));
    for (const event of calls) {
      delivery.event(event);
      clock.advance(1_000);
      await delivery.settled();
    }
    delivery.event(delta('Found it.'));
    delivery.finish(outcome('Found it.'));
    await delivery.done;
    expect(adapter.sent.map((m) => m.text)).toEqual([
      'Let me look.',
      [
        '💻 terminal: ls -la',
        '💻 terminal: cat notes.txt',
        '📖 read_file: src/app.ts',
        '💻 terminal: pwd ✗',
      ].join('\n'),
      'Found it.',
    ]);
  });

  it('redacts secrets in tool arguments and keeps long ones short', async () => {
    const { adapter, delivery } = await deliveryFixture({ canEdit: false });
    delivery.event(
      toolStart('terminal', {
        command: `OPENAI_API_KEY=sk-abcdefghijklmnopqrstu123 ${'x'.repeat(300)}`,
      }),
    );
    await delivery.settled();
    const line = adapter.sent[0]?.text ?? '';
    expect(line).not.toContain('sk-abcdefghijklmnopqrstu123');
    expect(line.startsWith('💻 terminal: OPENAI_API_KEY=[REDACTED]')).toBe(true);
    expect(line.length).toBeLessThan(140);
  });
});

describe('ChatDelivery: smart approval rulings', () => {
  it("shows what the smart judge approved or denied even with tool progress off, redacted; not the user's own rulings", async () => {
    const { adapter, delivery } = await deliveryFixture(
      { canEdit: false },
      { toolProgress: 'off' },
    );
    delivery.event(toolStart('terminal', { command: 'rm -rf build' }, 'a'));
    delivery.event(ruling('smart', 'once', 'rm -rf build', 'only the build output'));
    delivery.event(
      ruling(
        'smart',
        'deny',
        'curl -H "Authorization: Bearer sk-abcdefghijklmnopqrstu123" x',
        'exfiltration',
      ),
    );
    delivery.event(ruling('user', 'once', 'git push --force', 'the user said yes'));
    delivery.finish(outcome('done'));
    await delivery.done;
    const texts = adapter.sent.map((m) => m.text);
    expect(texts[0]).toBe('⚖️ smart approval approved: rm -rf build (only the build output)');
    expect(texts[1]).toMatch(/^⚖️ smart approval denied: curl .*\(exfiltration\)$/);
    expect(texts.join('\n')).not.toContain('sk-abcdefghijklmnopqrstu123');
    expect(texts.slice(2)).toEqual(['done']);
  });
});

describe('ChatDelivery: failures as one human sentence', () => {
  it('a failed turn says what went wrong in one sentence, after what was streamed', async () => {
    const { adapter, delivery } = await deliveryFixture();
    delivery.event(delta('Partial answer '));
    delivery.event({
      type: 'error',
      turnId: 't1',
      code: 'provider.rate_limit',
      message: '429 Too Many Requests (request id req_abc123456)',
      retryable: false,
    });
    delivery.finish(outcome('Error code: 429 req_abc123456', true));
    await delivery.done;
    expect(adapter.sent.map((m) => m.text)).toEqual([
      'Partial answer',
      PROVIDER_ERROR_SENTENCES.rateLimit,
    ]);
  });

  it('fail() sends one sentence and no key or stack', async () => {
    const { adapter, delivery, store } = await deliveryFixture();
    delivery.fail({
      code: 'provider.auth',
      message: 'Incorrect API key sk-proj-Abcdefghijklmnopqrstuvwx0123\n    at call (x.js:1:1)',
    });
    await delivery.done;
    expect(adapter.sent.map((m) => m.text)).toEqual([PROVIDER_ERROR_SENTENCES.auth]);
    expect(store.closed.map((c) => c.how)).toEqual(['completed']);
  });

  it('ignores events after the outcome', async () => {
    const { adapter, delivery } = await deliveryFixture({ canEdit: false });
    delivery.finish(outcome('the end'));
    delivery.event(delta('late'));
    delivery.finish(outcome('again'));
    await delivery.done;
    await delivery.settled();
    expect(adapter.sent.map((m) => m.text)).toEqual(['the end']);
  });
});

describe('ChatDelivery: the ledger when sending fails', () => {
  it('a chat that is gone drops the delivery at once, without retrying', async () => {
    const { adapter, delivery, store } = await deliveryFixture({ canEdit: false });
    adapter.failNextSends(new HermesError('gateway.chat_not_found', 'chat 42 was deleted'));
    let attempts = 0;
    adapter.onSend = () => {
      attempts++;
    };
    delivery.finish(outcome('hello'));
    await delivery.done;
    expect(attempts).toBe(1);
    expect(adapter.sent).toHaveLength(0);
    expect(store.deliveries.size).toBe(0);
    expect(store.closed.map((c) => c.how)).toEqual(['dead']);
  });

  it('other failures are retried with backoff, then delivered', async () => {
    const { clock, adapter, delivery, store } = await deliveryFixture({ canEdit: false });
    adapter.failNextSends(new Error('socket hang up'), new Error('socket hang up'));
    delivery.finish(outcome('hello'));
    await until(() => clock.pending === 1, 'the first backoff');
    clock.advance(999);
    await new Promise((resolve) => setImmediate(resolve));
    expect(clock.pending).toBe(1); // still waiting: the first backoff is 1 s
    clock.advance(1);
    await until(() => clock.pending === 1, 'the second backoff');
    clock.advance(4_000);
    await delivery.done;
    expect(adapter.sent.map((m) => m.text)).toEqual(['hello']);
    expect(store.closed.map((c) => c.how)).toEqual(['completed']);
  });

  it('gives up after the bounded retries and leaves the rest in the ledger for the next start', async () => {
    const { clock, adapter, delivery, store } = await deliveryFixture({
      canEdit: false,
      maxMessageLength: 20,
    });
    const text = 'first part is here. second part here. third part is here.';
    let sends = 0;
    adapter.onSend = () => {
      sends++;
      if (sends >= 2) throw new Error('503 from the platform');
    };
    delivery.finish(outcome(text));
    for (let i = 0; i < 2; i++) {
      await until(() => clock.pending === 1, `backoff ${i + 1}`);
      clock.advance(60_000);
    }
    await delivery.done;
    expect(sends).toBe(4); // one success, then the failing part three times
    const [left] = [...store.deliveries.values()];
    expect(left?.sentParts).toBe(1);
    expect(left?.attempts).toBe(1);
    expect(left?.text).toBe(text);
  });
});
