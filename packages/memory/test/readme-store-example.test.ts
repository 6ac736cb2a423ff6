// The store example from README.md, kept here so it is proven to run.
import { BuiltinMemoryStore, handleMemoryTool, MemoryManager } from '@hermes/memory';
import { expect, it } from 'vitest';

it('README store example', async () => {
  const store = new BuiltinMemoryStore(); // HERMES_HOME/memories
  await store.loadSnapshot(); // frozen for this session's system prompt
  const manager = new MemoryManager(); // no external provider configured
  store.subscribe((event) => manager.onMemoryWrite(event));

  const reply = await handleMemoryTool(
    { target: 'user', action: 'add', content: 'Prefers answers in British English.' },
    store,
  );
  expect(JSON.parse(reply).message).toBe('Entry added.');
  expect(store.formatForSystemPrompt()).toBe('');
});
