/** Proves the contract can fail: each check and assertion rejects a deliberately broken input. */
import * as shared from '@hermes/protocol/testing';
import { describe, expect, it } from 'vitest';
import type { ChatOptions, ChatRequest, ChatResponse, StreamEvent } from '../src/index.js';
import {
  assertValidChatResponse,
  assertValidStreamOrder,
  checkAbortedSignal,
  checkChatResponse,
  checkProviderName,
  checkRequestNotMutated,
  checkStreaming,
  contractViolation,
  DEFAULT_PROVIDER_SCRIPT,
  type ProviderCheckContext,
  settleWithin,
} from '../src/testing.js';
import { ScriptedProvider } from './support/scripted-provider.js';

/** Matches a `ContractViolation` (the one way a check fails) whose message matches `pattern`. */
const violation = (pattern: RegExp) =>
  expect.objectContaining({ name: 'ContractViolation', message: expect.stringMatching(pattern) });

const toolCall = {
  id: 'call_1',
  type: 'function' as const,
  function: { name: 'ls', arguments: '{"a":1}' },
};

const goodStream: StreamEvent[] = [
  { type: 'reasoning_start', index: 0 },
  { type: 'reasoning_delta', index: 0, delta: 'hmm' },
  { type: 'reasoning_end', index: 0, text: 'hmm' },
  { type: 'tool_call_start', index: 0, id: 'call_1', name: 'ls' },
  { type: 'tool_call_start', index: 1, id: 'call_2', name: 'cat' },
  { type: 'tool_call_delta', index: 0, argumentsDelta: '{"a"' },
  { type: 'tool_call_delta', index: 1, argumentsDelta: '{}' },
  { type: 'tool_call_delta', index: 0, argumentsDelta: ':1}' },
  {
    type: 'tool_call_end',
    index: 1,
    toolCall: { ...toolCall, id: 'call_2', function: { name: 'cat', arguments: '{}' } },
  },
  { type: 'tool_call_end', index: 0, toolCall },
  {
    type: 'usage',
    usage: {
      inputTokens: 1,
      outputTokens: 2,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 1,
    },
  },
  { type: 'done', finishReason: 'tool_calls' },
];

describe('the shared primitives', () => {
  it('are re-exported from @hermes/protocol/testing, so every check fails the same way', () => {
    expect(contractViolation).toBe(shared.contractViolation);
    expect(settleWithin).toBe(shared.settleWithin);
  });
});

describe('assertValidStreamOrder', () => {
  it('accepts a valid stream with interleaved tool calls', () => {
    expect(() => assertValidStreamOrder(goodStream)).not.toThrow();
  });

  const bad: Record<string, unknown[]> = {
    'delta before start': [
      { type: 'text_delta', index: 0, delta: 'x' },
      { type: 'done', finishReason: 'stop' },
    ],
    'event after end': [
      { type: 'text_start', index: 0 },
      { type: 'text_end', index: 0, text: '' },
      { type: 'text_delta', index: 0, delta: 'late' },
      { type: 'done', finishReason: 'stop' },
    ],
    'started twice': [
      { type: 'text_start', index: 0 },
      { type: 'text_start', index: 0 },
      { type: 'done', finishReason: 'stop' },
    ],
    'unclosed block': [
      { type: 'text_start', index: 0 },
      { type: 'done', finishReason: 'stop' },
    ],
    'missing done': [
      { type: 'text_start', index: 0 },
      { type: 'text_end', index: 0, text: '' },
    ],
    'done not last': [{ type: 'done', finishReason: 'stop' }, goodStream[10]],
    'two dones': [
      { type: 'done', finishReason: 'stop' },
      { type: 'done', finishReason: 'stop' },
    ],
    'end text differs from deltas': [
      { type: 'text_start', index: 0 },
      { type: 'text_delta', index: 0, delta: 'ab' },
      { type: 'text_end', index: 0, text: 'abc' },
      { type: 'done', finishReason: 'stop' },
    ],
    'tool call id changes': [
      { type: 'tool_call_start', index: 0, id: 'call_9', name: 'ls' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{"a":1}' },
      { type: 'tool_call_end', index: 0, toolCall },
      { type: 'done', finishReason: 'tool_calls' },
    ],
    'unknown event type': [
      { type: 'text_chunk', index: 0 },
      { type: 'done', finishReason: 'stop' },
    ],
    'negative index': [
      { type: 'text_start', index: -1 },
      { type: 'done', finishReason: 'stop' },
    ],
    empty: [],
  };
  for (const [name, events] of Object.entries(bad)) {
    it(`rejects a stream with ${name}`, () => {
      expect(() => assertValidStreamOrder(events)).toThrow(violation(/stream/));
    });
  }
});

describe('assertValidChatResponse', () => {
  it('rejects a response without usage', () => {
    expect(() =>
      assertValidChatResponse({
        message: { role: 'assistant', content: 'hi' },
        finishReason: 'stop',
        model: 'm',
        provider: 'p',
      }),
    ).toThrow(violation(/ChatResponse/));
  });
});

/** Breaks one aspect of the scripted provider at a time. */
class BrokenProvider extends ScriptedProvider {
  constructor(private readonly defect: 'hang' | 'bad-order' | 'mutate' | 'wrong-text') {
    super(DEFAULT_PROVIDER_SCRIPT);
  }

  override chat(request: ChatRequest, options: ChatOptions = {}): Promise<ChatResponse> {
    if (this.defect === 'hang') return new Promise(() => undefined);
    if (this.defect === 'mutate')
      (request.messages as unknown[]).push({ role: 'user', content: 'x' });
    if (this.defect === 'bad-order')
      options.onEvent?.({ type: 'text_delta', index: 0, delta: 'x' });
    if (this.defect === 'wrong-text')
      return super
        .chat(request, {})
        .then((r) => ({ ...r, message: { role: 'assistant', content: 'nope' } }));
    return super.chat(request, options);
  }
}

function ctx(provider: ProviderCheckContext['provider']): ProviderCheckContext {
  return { provider, script: DEFAULT_PROVIDER_SCRIPT, model: 'm', abortDeadlineMs: 50 };
}

describe('the provider checks fail on broken providers', () => {
  it('checkAbortedSignal fails when chat ignores an aborted signal and hangs', async () => {
    await expect(checkAbortedSignal(ctx(new BrokenProvider('hang')))).rejects.toThrow(
      violation(/did not settle/),
    );
  });

  it('checkStreaming fails on a delta before its start', async () => {
    await expect(checkStreaming(ctx(new BrokenProvider('bad-order')))).rejects.toThrow(
      violation(/before its start/),
    );
  });

  it('checkRequestNotMutated fails when chat mutates the messages', async () => {
    await expect(checkRequestNotMutated(ctx(new BrokenProvider('mutate')))).rejects.toThrow(
      violation(/mutate/),
    );
  });

  it('checkChatResponse fails on the wrong answer text', async () => {
    await expect(checkChatResponse(ctx(new BrokenProvider('wrong-text')))).rejects.toThrow(
      violation(/scripted text/),
    );
  });

  it('checkProviderName fails on an empty name', async () => {
    const provider = new ScriptedProvider(DEFAULT_PROVIDER_SCRIPT);
    Object.defineProperty(provider, 'name', { value: '' });
    await expect(checkProviderName(ctx(provider))).rejects.toThrow(violation(/name/));
  });
});
