/** Every seam reaches plugin authors through the SDK, as the very class its package exports. */
import * as approval from '@hermes/approval';
import * as contextEngine from '@hermes/context-engine';
import * as environments from '@hermes/environments';
import * as gateway from '@hermes/gateway';
import * as memory from '@hermes/memory';
import * as protocol from '@hermes/protocol';
import * as providers from '@hermes/providers';
import * as state from '@hermes/state';
import { describe, expect, it } from 'vitest';
import * as sdk from '../src/index.js';

const SEAMS = [
  ['ModelProvider', sdk.ModelProvider, providers.ModelProvider],
  ['SessionStore', sdk.SessionStore, state.SessionStore],
  ['ContextEngine', sdk.ContextEngine, contextEngine.ContextEngine],
  ['MemoryProvider', sdk.MemoryProvider, memory.MemoryProvider],
  ['ApprovalHandler', sdk.ApprovalHandler, approval.ApprovalHandler],
  ['ExecutionEnvironment', sdk.ExecutionEnvironment, environments.ExecutionEnvironment],
  ['PlatformAdapter', sdk.PlatformAdapter, gateway.PlatformAdapter],
] as const;

describe('the SDK re-exports the seven seams', () => {
  for (const [name, fromSdk, fromPackage] of SEAMS) {
    it(`${name} is a class, and the same one its package exports`, () => {
      expect(typeof fromSdk).toBe('function');
      expect(Function.prototype.toString.call(fromSdk)).toMatch(/^class\b/);
      expect(fromSdk).toBe(fromPackage);
      expect(Object.keys(sdk)).toContain(name);
    });
  }

  it('the seams are abstract: TypeScript refuses to instantiate them', () => {
    // Never called: the @ts-expect-error lines are what is tested, by the type check.
    const typeChecked = () => [
      // @ts-expect-error ModelProvider is abstract
      new sdk.ModelProvider(),
      // @ts-expect-error SessionStore is abstract
      new sdk.SessionStore(),
      // @ts-expect-error ContextEngine is abstract
      new sdk.ContextEngine(),
      // @ts-expect-error MemoryProvider is abstract
      new sdk.MemoryProvider(),
      // @ts-expect-error ApprovalHandler is abstract
      new sdk.ApprovalHandler(),
      // @ts-expect-error ExecutionEnvironment is abstract
      new sdk.ExecutionEnvironment(),
      // @ts-expect-error PlatformAdapter is abstract
      new sdk.PlatformAdapter(),
    ];
    expect(typeof typeChecked).toBe('function');
  });

  it('re-exports the protocol vocabulary and the error base unchanged', () => {
    expect(sdk.HermesError).toBe(protocol.HermesError);
    expect(sdk.isHermesError).toBe(protocol.isHermesError);
    expect(sdk.parseOrThrow).toBe(protocol.parseOrThrow);
    expect(sdk.ChatMessageSchema).toBe(protocol.ChatMessageSchema);
    expect(sdk.AgentEventSchema).toBe(protocol.AgentEventSchema);
    expect(sdk.ApprovalDecisionSchema).toBe(protocol.ApprovalDecisionSchema);
  });

  it('keeps agent events and provider stream events apart by name', () => {
    expect(sdk.TextDeltaEventSchema).toBe(protocol.TextDeltaEventSchema);
    expect(sdk.StreamTextDeltaEventSchema).toBe(providers.StreamTextDeltaEventSchema);
    expect(sdk.ToolCallStartEventSchema).toBe(protocol.ToolCallStartEventSchema);
    expect(sdk.StreamToolCallStartEventSchema).toBe(providers.StreamToolCallStartEventSchema);
  });

  it('re-exports the key helpers of the seam packages', () => {
    expect(sdk.requestApproval).toBe(approval.requestApproval);
    expect(sdk.VerdictSchema).toBe(approval.VerdictSchema);
    expect(sdk.EnvironmentConnectionError).toBe(environments.EnvironmentConnectionError);
    expect(sdk.splitText).toBe(gateway.splitText);
    expect(sdk.StreamEventSchema).toBe(providers.StreamEventSchema);
  });
});
