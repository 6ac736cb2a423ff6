/** The provider: the shared contract suite, recall format, mirroring, config and the plugin. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { PluginContext } from '@hermes/plugin-sdk';
import { describeMemoryProviderContract } from '@hermes/plugin-sdk/testing';
import { describe, expect, it } from 'vitest';
import plugin, { HolographicMemoryProvider } from '../src/index.js';

describeMemoryProviderContract('holographic', () => new HolographicMemoryProvider());

function home(): string {
  return process.env.HERMES_HOME ?? '';
}

describe('HolographicMemoryProvider', () => {
  it('recalls facts as "- [trust] content" under a heading, and nothing when nothing matches', async () => {
    const provider = new HolographicMemoryProvider();
    await provider.initialize({ hermesHome: home(), sessionId: 's', platform: 'cli' });
    provider.factStore?.addFact({ content: 'This project uses pnpm, not npm.', trust: 0.7 });
    expect(await provider.prefetch('should I use npm or pnpm here?')).toBe(
      '## Holographic Memory\n- [0.7] This project uses pnpm, not npm.',
    );
    expect(await provider.prefetch('weather tomorrow')).toBe('');
    expect(provider.factStore?.listFacts()[0]?.retrievalCount).toBe(1);
    expect(provider.backupPaths()).toEqual([join(home(), 'memory_store.db')]);
    expect(existsSync(join(home(), 'memory_store.db'))).toBe(true);
    await provider.shutdown();
  });

  it('mirrors built-in memory writes: add, replace and remove', async () => {
    const provider = new HolographicMemoryProvider();
    await provider.initialize({ hermesHome: home(), sessionId: 's', platform: 'cli' });
    await provider.onMemoryWrite({ action: 'add', target: 'user', content: 'Prefers tabs.' });
    expect(provider.factStore?.findByContent('Prefers tabs.')?.category).toBe('user_pref');
    await provider.onMemoryWrite({
      action: 'replace',
      target: 'user',
      content: 'Prefers spaces.',
      previousContent: 'Prefers tabs.',
    });
    expect(provider.factStore?.listFacts().map((f) => f.content)).toEqual(['Prefers spaces.']);
    await provider.onMemoryWrite({ action: 'remove', target: 'user', content: 'Prefers spaces.' });
    expect(provider.factStore?.listFacts()).toEqual([]);
    await provider.shutdown();
  });

  it('rejects a bad config section by name', async () => {
    const provider = new HolographicMemoryProvider();
    await expect(
      provider.initialize({
        hermesHome: home(),
        sessionId: 's',
        platform: 'cli',
        config: { min_trust: 3 },
      }),
    ).rejects.toThrow(/min_trust/);
  });

  it('is a memory plugin that registers the provider', async () => {
    expect(plugin.manifest).toMatchObject({
      kind: 'memory',
      name: '@hermes/plugin-memory-holographic',
    });
    const registered: unknown[] = [];
    const ctx = {
      registerMemoryProvider: (p: unknown) => registered.push(p),
    } as unknown as PluginContext;
    await plugin.register(ctx);
    expect(registered).toHaveLength(1);
    expect(registered[0]).toBeInstanceOf(HolographicMemoryProvider);
  });
});
