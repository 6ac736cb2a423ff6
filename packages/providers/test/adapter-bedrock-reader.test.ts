/**
 * The Bedrock stream reader on hand-made events, for what the scripted server does not send:
 * redacted reasoning (encrypted bytes) and its replay, a tool call without arguments, unknown
 * event types, and a stream that ends before `messageStop`.
 */
import { describe, expect, it } from 'vitest';
import { bedrockCallFailure } from '../src/adapters/bedrock-errors.js';
import { toBedrockConversation } from '../src/adapters/bedrock-messages.js';
import { BedrockStreamReader } from '../src/adapters/bedrock-stream-reader.js';
import { StreamAccumulator } from '../src/stream/response-builder.js';

function read(events: unknown[]) {
  const acc = new StreamAccumulator();
  const reader = new BedrockStreamReader(acc);
  for (const event of events) reader.handle(event);
  reader.assertComplete();
  return acc.build({ model: 'm', provider: 'bedrock-converse' });
}

describe('bedrock-converse stream reader', () => {
  it('keeps redacted reasoning as base64 and replays it as bytes', () => {
    const secret = Uint8Array.from([1, 2, 3, 250]);
    const response = read([
      { messageStart: { role: 'assistant' } },
      {
        contentBlockDelta: {
          contentBlockIndex: 0,
          delta: { reasoningContent: { redactedContent: secret } },
        },
      },
      { contentBlockStop: { contentBlockIndex: 0 } },
      { contentBlockDelta: { contentBlockIndex: 1, delta: { text: 'Done.' } } },
      { contentBlockStop: { contentBlockIndex: 1 } },
      { messageStop: { stopReason: 'end_turn' } },
    ]);
    const data = Buffer.from(secret).toString('base64');
    expect(response.message.reasoning_details).toEqual([{ type: 'redacted_thinking', data }]);
    const [, assistant] = toBedrockConversation([
      { role: 'user', content: 'q' },
      response.message,
    ]).messages;
    const replayed = assistant?.content?.[0]?.reasoningContent?.redactedContent;
    expect(Array.from(replayed ?? [])).toEqual([1, 2, 3, 250]);
  });

  it('gives a tool call without input fragments empty arguments, and skips unknown events', () => {
    const response = read([
      { messageStart: { role: 'assistant' } },
      { someFutureEvent: { anything: true } },
      {
        contentBlockStart: {
          contentBlockIndex: 0,
          start: { toolUse: { toolUseId: 't1', name: 'now' } },
        },
      },
      { contentBlockStop: { contentBlockIndex: 0 } },
      { messageStop: { stopReason: 'tool_use' } },
      { metadata: { usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 } } },
    ]);
    expect(response.message.tool_calls).toEqual([
      { id: 't1', type: 'function', function: { name: 'now', arguments: '{}' } },
    ]);
    expect(response.usage).toMatchObject({ inputTokens: 3, outputTokens: 2 });
  });

  it('a stream ending before messageStop is an incomplete answer, classified as a dropped connection', () => {
    const acc = new StreamAccumulator();
    const reader = new BedrockStreamReader(acc);
    reader.handle({ messageStart: { role: 'assistant' } });
    reader.handle({ contentBlockDelta: { contentBlockIndex: 0, delta: { text: 'Part' } } });
    let raised: unknown;
    try {
      reader.assertComplete();
    } catch (error) {
      raised = error;
    }
    const failure = bedrockCallFailure(raised, {
      classify: { provider: 'bedrock', model: 'm' },
      secrets: [],
      callerSignal: undefined,
      watchdog: undefined,
      partialText: acc.partialText(),
    });
    expect(failure).toMatchObject({ code: 'provider.server_error', retryable: true });
    expect(acc.partialText()).toBe('Part');
  });
});
