/** A fresh store in the per-test HERMES_HOME. */
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { FactRetriever, HolographicFactStore } from '../src/index.js';

const open: HolographicFactStore[] = [];
afterEach(() => {
  for (const store of open.splice(0)) store.close();
});

/** Opens a store (closed after the test) and its retriever. */
export function freshStore(): { store: HolographicFactStore; retriever: FactRetriever } {
  const home = process.env.HERMES_HOME;
  if (!home) throw new Error('the test setup provides HERMES_HOME');
  const store = new HolographicFactStore({ path: join(home, 'memory_store.db') });
  open.push(store);
  return { store, retriever: new FactRetriever(store) };
}
