/** Proves the contract can fail: each check and assertion rejects a deliberately broken input. */
import type { ChatMessage } from '@hermes/protocol';
import * as shared from '@hermes/protocol/testing';
import { describe, expect, it } from 'vitest';
import type { CompressionResult } from '../src/index.js';
import {
  assertKeepsLastUserMessage,
  assertStartsWithSystem,
  assertToolPairsIntact,
  type ContextEngineCheckContext,
  checkCompress,
  checkLifecycleAndTools,
  checkNoCompressionWhenSmall,
  checkSelectContext,
  contractViolation,
  deepFreeze,
  longConversation,
} from '../src/testing.js';
import { KeepLastNEngine } from './support/keep-last-n-engine.js';

/** Matches a `ContractViolation` (the one way a check fails) whose message matches `pattern`. */
const violation = (pattern: RegExp) =>
  expect.objectContaining({ name: 'ContractViolation', message: expect.stringMatching(pattern) });

const call = (id: string) => ({
  id,
  type: 'function' as const,
  function: { name: 't', arguments: '{}' },
});
const ask: ChatMessage = { role: 'assistant', content: null, tool_calls: [call('a'), call('b')] };
const result = (id: string): ChatMessage => ({ role: 'tool', tool_call_id: id, content: 'ok' });
const user: ChatMessage = { role: 'user', content: 'go' };

describe('the shared primitives', () => {
  it('are re-exported from @hermes/protocol/testing, so every check fails the same way', () => {
    expect(contractViolation).toBe(shared.contractViolation);
    expect(deepFreeze).toBe(shared.deepFreeze);
  });
});

describe('the context assertions reject bad input', () => {
  it('assertToolPairsIntact accepts answered calls and rejects orphans and lost results', () => {
    expect(() => assertToolPairsIntact([user, ask, result('b'), result('a'), user])).not.toThrow();
    expect(() => assertToolPairsIntact([user, result('a')])).toThrow(
      violation(/no open tool call/),
    );
    expect(() => assertToolPairsIntact([ask, result('a'), user])).toThrow(
      violation(/lost their results/),
    );
    expect(() => assertToolPairsIntact([ask, result('a')])).toThrow(violation(/at the end/));
    expect(() => assertToolPairsIntact([ask, result('a'), result('a'), result('b')])).toThrow(
      violation(/no open tool call/),
    );
  });

  it('assertStartsWithSystem rejects a dropped or altered system message', () => {
    const system: ChatMessage = { role: 'system', content: 'S' };
    expect(() => assertStartsWithSystem([system, user], [system])).not.toThrow();
    expect(() => assertStartsWithSystem([system, user], [user])).toThrow(violation(/begin with/));
    expect(() => assertStartsWithSystem([system], [{ role: 'system', content: 'T' }])).toThrow(
      violation(/unchanged/),
    );
  });

  it('assertKeepsLastUserMessage rejects a dropped latest user message', () => {
    expect(() => assertKeepsLastUserMessage([user], [])).toThrow(violation(/latest user/));
  });
});

/** Keeps the last N messages blindly: drops the system prompt and splits tool groups. */
class CarelessEngine extends KeepLastNEngine {
  override compress(messages: readonly ChatMessage[]): Promise<CompressionResult> {
    const kept = messages.slice(-6);
    const stats = {
      messagesBefore: messages.length,
      messagesAfter: 6,
      tokensBefore: 0,
      tokensAfter: 0,
    };
    return Promise.resolve({ messages: kept, changed: true, stats });
  }
}

/** Keeps the system prompt but cuts inside a tool group. */
class SplittingEngine extends KeepLastNEngine {
  override compress(messages: readonly ChatMessage[]): Promise<CompressionResult> {
    const kept = [...messages.slice(0, 1), ...messages.slice(-3)];
    const stats = {
      messagesBefore: messages.length,
      messagesAfter: kept.length,
      tokensBefore: 0,
      tokensAfter: 0,
    };
    return Promise.resolve({ messages: kept, changed: true, stats });
  }
}

/** Sorts the request in place. */
class MutatingEngine extends KeepLastNEngine {
  override selectContext(messages: readonly ChatMessage[]): Promise<readonly ChatMessage[]> {
    return Promise.resolve((messages as ChatMessage[]).reverse());
  }
}

/** Claims every tool call, even ones it does not own. */
class GreedyEngine extends KeepLastNEngine {
  override handleToolCall(): Promise<string | undefined> {
    return Promise.resolve('handled');
  }
}

/** Always wants to compress. */
class JumpyEngine extends KeepLastNEngine {
  override shouldCompress(): boolean {
    return true;
  }
}

const ctx = (engine: ContextEngineCheckContext['engine']): ContextEngineCheckContext => ({
  engine,
  model: 'm',
  contextLength: 128_000,
});

describe('the context-engine checks fail on broken engines', () => {
  it('checkCompress fails when the system message is dropped', async () => {
    await expect(checkCompress(ctx(new CarelessEngine(128_000)))).rejects.toThrow(
      violation(/system message/),
    );
  });

  it('checkCompress fails when a tool group is split', async () => {
    expect(longConversation().slice(-3)[0]?.role).toBe('tool');
    await expect(checkCompress(ctx(new SplittingEngine(128_000)))).rejects.toThrow(
      violation(/no open tool call/),
    );
  });

  it('checkSelectContext fails when the input is mutated', async () => {
    await expect(checkSelectContext(ctx(new MutatingEngine(128_000)))).rejects.toThrow(TypeError);
  });

  it('checkLifecycleAndTools fails when an unknown tool is claimed', async () => {
    await expect(checkLifecycleAndTools(ctx(new GreedyEngine(128_000)))).rejects.toThrow(
      violation(/undefined/),
    );
  });

  it('checkNoCompressionWhenSmall fails when small prompts trigger compression', async () => {
    await expect(checkNoCompressionWhenSmall(ctx(new JumpyEngine(128_000)))).rejects.toThrow(
      violation(/false/),
    );
  });
});
