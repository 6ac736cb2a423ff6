// The example from README.md, kept here so it is proven to run.
import { HolographicMemoryProvider } from '@hermes/plugin-memory-holographic';
import { expect, it } from 'vitest';

it('README example', async () => {
  const memory = new HolographicMemoryProvider();
  await memory.initialize({
    hermesHome: process.env.HERMES_HOME ?? '',
    sessionId: 's1',
    platform: 'cli',
  });
  await memory.handleToolCall('fact_store', {
    action: 'add',
    content: 'This repo uses pnpm, not npm.',
  });
  expect(await memory.prefetch('should I run npm install?')).toBe(
    '## Holographic Memory\n- [0.5] This repo uses pnpm, not npm.',
  );
  await memory.shutdown();
});
