import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type AgentEvent,
  type AgentEventOf,
  AgentEventSchema,
  ExitReasonSchema,
  emptyUsage,
} from '../src/index.js';

const samples: AgentEvent[] = [
  { type: 'turn_start', turnId: 't1', sessionId: 's1', userMessage: 'hi' },
  { type: 'iteration_start', turnId: 't1', iteration: 1, maxIterations: 90 },
  { type: 'text_delta', turnId: 't1', delta: 'Hel' },
  { type: 'reasoning_delta', turnId: 't1', delta: 'thinking' },
  { type: 'tool_call_start', turnId: 't1', toolCallId: 'c1', name: 'terminal', arguments: '{}' },
  { type: 'tool_call_progress', turnId: 't1', toolCallId: 'c1', name: 'terminal', message: '..' },
  {
    type: 'tool_call_end',
    turnId: 't1',
    toolCallId: 'c1',
    name: 'terminal',
    outcome: 'ok',
    durationMs: 12,
    preview: 'exit 0',
  },
  {
    type: 'compression_start',
    turnId: 't1',
    trigger: 'threshold',
    tokensBefore: 100_000,
    messagesBefore: 80,
  },
  {
    type: 'compression_end',
    turnId: 't1',
    ok: true,
    tokensBefore: 100_000,
    tokensAfter: 20_000,
    messagesBefore: 80,
    messagesAfter: 12,
  },
  {
    type: 'approval_request',
    turnId: 't1',
    requestId: 'a1',
    command: 'rm -rf build',
    reason: 'recursive delete',
  },
  {
    type: 'approval_resolution',
    turnId: 't1',
    requestId: 'a1',
    decision: 'once',
    decidedBy: 'user',
  },
  { type: 'memory_recall', turnId: 't1', provider: 'holographic', chars: 420 },
  {
    type: 'fallback_activated',
    turnId: 't1',
    from: { provider: 'openrouter', model: 'a' },
    to: { provider: 'anthropic', model: 'b' },
    reason: 'rate limited',
  },
  {
    type: 'model_retry',
    turnId: 't1',
    attempt: 1,
    delayMs: 2000,
    code: 'provider.server_error',
    message: 'Connection error.',
  },
  { type: 'error', turnId: 't1', code: 'provider.rate_limited', message: 'slow', retryable: true },
  {
    type: 'turn_end',
    turnId: 't1',
    sessionId: 's1',
    exitReason: 'completed',
    completed: true,
    interrupted: false,
    failed: false,
    apiCalls: 2,
    usage: emptyUsage(),
  },
];

describe('AgentEvent', () => {
  it('round-trips one sample of every event type', () => {
    const types = new Set(samples.map((s) => s.type));
    expect(types.size).toBe(AgentEventSchema.options.length);
    for (const event of samples) expect(AgentEventSchema.parse(event)).toEqual(event);
  });

  it('rejects an unknown type and a turn_end with an unknown exit reason', () => {
    expect(AgentEventSchema.safeParse({ type: 'nope', turnId: 't' }).success).toBe(false);
    const bad = { ...samples.at(-1), exitReason: 'gave_up' };
    expect(AgentEventSchema.safeParse(bad).success).toBe(false);
  });

  it('narrows by type', () => {
    expectTypeOf<AgentEventOf<'text_delta'>>().toHaveProperty('delta');
    const event = samples[2] as AgentEvent;
    if (event.type === 'text_delta') expect(event.delta).toBe('Hel');
    else expect.unreachable('sample 2 is a text delta');
  });

  it('lists the seed exit reasons', () => {
    for (const reason of [
      'interrupted_during_api_call',
      'all_retries_exhausted_no_response',
      'guardrail_halt',
      'budget_exhausted',
    ]) {
      expect(ExitReasonSchema.safeParse(reason).success).toBe(true);
    }
  });
});
