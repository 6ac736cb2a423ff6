import { describe, expect, it } from 'vitest';
import { describeMemoryProviderContract } from '../src/testing.js';
import { InMemoryMemoryProvider } from './support/in-memory-provider.js';

describeMemoryProviderContract('in-test in-memory provider', () => new InMemoryMemoryProvider());

describe('the in-test provider', () => {
  it('recalls a synced turn and a tool-written fact', async () => {
    const provider = new InMemoryMemoryProvider(0);
    await provider.initialize({ hermesHome: '/tmp/x', sessionId: 's', platform: 'cli' });
    await provider.syncTurn({
      userMessage: 'I prefer pnpm.',
      assistantMessage: 'Noted.',
      sessionId: 's',
    });
    await expect(
      provider.handleToolCall('memory_note', { fact: 'The database is Postgres.' }),
    ).resolves.toBe('Remembered.');
    await expect(provider.prefetch('pnpm or npm?')).resolves.toBe('- I prefer pnpm.');
    await expect(provider.prefetch('which database')).resolves.toBe('- The database is Postgres.');
    await expect(provider.prefetch('weather')).resolves.toBe('');
  });
});
