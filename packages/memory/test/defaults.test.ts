import { describe, expect, it } from 'vitest';
import { type MemoryInitContext, MemoryProvider, type MemoryTurn } from '../src/index.js';
import { describeMemoryProviderContract } from '../src/testing.js';

/** Implements only the required members. */
class RequiredOnlyProvider extends MemoryProvider {
  readonly name = 'required-only';
  initialize(_context: MemoryInitContext): Promise<void> {
    return Promise.resolve();
  }
  prefetch(_query: string): Promise<string> {
    return Promise.resolve('');
  }
  syncTurn(_turn: MemoryTurn): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

describe('MemoryProvider optional members', () => {
  it('have safe defaults for a provider that implements only the required members', async () => {
    const provider = new RequiredOnlyProvider();
    const messages = [{ role: 'user' as const, content: 'hi' }];
    expect(provider.systemPromptBlock()).toBe('');
    await expect(provider.queuePrefetch('q')).resolves.toBeUndefined();
    expect(provider.getToolSchemas()).toEqual([]);
    await expect(provider.handleToolCall('memory_note', {})).resolves.toBeUndefined();
    await expect(
      provider.onTurnStart({ turn: 1, message: 'hi', sessionId: 's' }),
    ).resolves.toBeUndefined();
    await expect(provider.onSessionEnd(messages)).resolves.toBeUndefined();
    await expect(
      provider.onSessionSwitch({ previousSessionId: 'a', newSessionId: 'b' }),
    ).resolves.toBeUndefined();
    await expect(provider.onPreCompress(messages)).resolves.toBe('');
    await expect(
      provider.onMemoryWrite({ action: 'add', target: 'memory', content: 'x' }),
    ).resolves.toBeUndefined();
    await expect(
      provider.onDelegation({ task: 't', result: 'r', parentSessionId: 's' }),
    ).resolves.toBeUndefined();
    expect(provider.backupPaths()).toEqual([]);
  });
});

describeMemoryProviderContract(
  'a provider with only the required members',
  () => new RequiredOnlyProvider(),
);
