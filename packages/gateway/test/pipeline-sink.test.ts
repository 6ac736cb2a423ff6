import { script } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, RecordingSink, startHarness, ToolGate } from './support/gateway-harness.js';

type Body = { messages: { role: string; content: unknown }[] };

function sawText(h: Harness, index: number, text: string): boolean {
  const body = h.server.requests[index]?.body as Body | undefined;
  return JSON.stringify(body?.messages ?? []).includes(text);
}

const ownPolicy = { hasOwnAccessPolicy: true };

describe('messages with their own sink (an HTTP client)', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('events stream to the sink, then one outcome; nothing is sent through the adapter', async () => {
    h = await startHarness(script().text('Hello over HTTP.'), {
      capabilities: ownPolicy,
      gateway: {},
    });
    const sink = new RecordingSink();
    await h.ask('hi', { sink }, { userId: 'anyone' });
    await sink.settled;
    expect(sink.outcome).toMatchObject({
      text: 'Hello over HTTP.',
      failed: false,
      exitReason: 'completed',
      model: 'm',
    });
    expect(sink.outcome?.sessionId).toMatch(/\S/);
    expect(sink.events.map((e) => e.type)).toContain('text_delta');
    expect(sink.events.at(-1)?.type).toBe('turn_end');
    expect(h.adapter.sent).toHaveLength(0);
  });

  it('history seeds a fresh session; sessionId continues a stored one', async () => {
    h = await startHarness(script().text('Third answer.').next().text('Continued.'), {
      capabilities: ownPolicy,
    });
    const first = new RecordingSink();
    await h.ask(
      'and the third?',
      {
        sink: first,
        history: [
          { role: 'user', content: 'first question about herons' },
          { role: 'assistant', content: 'first answer' },
        ],
      },
      { chatId: 'client-1' },
    );
    await first.settled;
    expect(sawText(h, 0, 'first question about herons')).toBe(true);
    const sessionId = first.outcome?.sessionId ?? '';

    const second = new RecordingSink();
    await h.ask('go on', { sink: second, sessionId }, { chatId: 'client-2' });
    await second.settled;
    expect(second.outcome?.sessionId).toBe(sessionId);
    expect(sawText(h, 1, 'and the third?')).toBe(true);
    expect(sawText(h, 1, 'Third answer.')).toBe(true);
  });

  it("aborting the client's signal stops the turn", async () => {
    const gate = new ToolGate();
    h = await startHarness(script().toolCall('hold').next().text('never'), {
      capabilities: ownPolicy,
      tools: [gate.tool],
    });
    const sink = new RecordingSink();
    const client = new AbortController();
    await h.ask('slow', { sink, signal: client.signal });
    await gate.waitEntered();
    client.abort();
    await sink.settled;
    expect(sink.outcome?.exitReason).toMatch(/^interrupted/);
    expect(h.server.requests).toHaveLength(1);
  });

  it('tool arguments with a secret reach the sink redacted', async () => {
    h = await startHarness(
      script()
        .toolCall('read_file', { path: 'x', token: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789' })
        .next()
        .text('ok'),
      { capabilities: ownPolicy },
    );
    const sink = new RecordingSink();
    await h.ask('read it', { sink });
    await sink.settled;
    const start = sink.events.find((e) => e.type === 'tool_call_start');
    expect(start).toBeDefined();
    expect(JSON.stringify(start)).not.toContain('abcdefghijklmnopqrstuvwxyz0123456789');
  });
});
