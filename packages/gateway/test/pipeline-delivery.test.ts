import { faults, script } from '@hermes/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './support/gateway-harness.js';

const squash = (text: string) => text.replace(/\s+/g, '');

function longAnswer(): string {
  return Array.from(
    { length: 8 },
    (_, i) => `Paragraph ${i + 1}: the gateway splits long answers at paragraph boundaries first.`,
  ).join('\n\n');
}

describe('delivery, end to end', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('streams by editing one message in place, then splits within the limit, losing nothing', async () => {
    const answer = longAnswer();
    h = await startHarness(script().text(answer).chunking({ textChunkSize: 40 }), {
      capabilities: { maxMessageLength: 200, canEdit: true },
      gateway: { allowed_users: ['u1'], stream: { edit_interval_ms: 1 } },
    });
    await h.say('write a long answer');
    await h.gateway.settled();
    const texts = h.texts();
    expect(texts.length).toBeGreaterThan(1);
    for (const text of texts) expect(text.length).toBeLessThanOrEqual(200);
    expect(squash(texts.join(''))).toBe(squash(answer));
    // The answer was shown while it streamed: at least one message was edited in place.
    expect(h.adapter.edits.length).toBeGreaterThan(0);
  });

  it('where the platform cannot edit, the answer is sent whole at the end, split within the limit', async () => {
    const answer = longAnswer();
    h = await startHarness(script().text(answer).chunking({ textChunkSize: 40 }), {
      capabilities: { maxMessageLength: 200, canEdit: false },
    });
    await h.say('write a long answer');
    await h.gateway.settled();
    expect(h.adapter.edits).toHaveLength(0);
    const texts = h.texts();
    for (const text of texts) expect(text.length).toBeLessThanOrEqual(200);
    expect(squash(texts.join(''))).toBe(squash(answer));
  });

  it('secrets in the answer never reach the chat', async () => {
    h = await startHarness(
      script().text('Your key is sk-proj-abcdefghijklmnopqrstuvwxyz0123 keep it safe.'),
    );
    await h.say('what is my key?');
    await h.gateway.settled();
    const all = h.texts().join('\n');
    expect(all).not.toContain('abcdefghijklmnopqrstuvwxyz0123');
    expect(all).toContain('[REDACTED]');
  });

  it('a provider failure becomes one human sentence', async () => {
    h = await startHarness(script().fault(faults.unauthorized()));
    await h.say('hello');
    await h.gateway.settled();
    const all = h.texts().join('\n');
    expect(all).toContain("The model provider's API key was rejected");
    expect(all).not.toMatch(/\n\s+at\s/);
  });

  it('tool progress lines show per tool_progress; off shows none', async () => {
    h = await startHarness(
      script().toolCall('read_file', { path: 'notes.txt' }).next().text('Read it.'),
    );
    await h.say('read my notes');
    await h.gateway.settled();
    expect(h.texts().some((t) => t.includes('read_file'))).toBe(true);
    await h.close();

    h = await startHarness(
      script().toolCall('read_file', { path: 'notes.txt' }).next().text('Read it.'),
      {
        gateway: { allowed_users: ['u1'], tool_progress: 'off' },
      },
    );
    await h.say('read my notes');
    await h.gateway.settled();
    expect(h.texts().some((t) => t.includes('read_file'))).toBe(false);
    expect(h.texts()).toContain('Read it.');
  });
});
