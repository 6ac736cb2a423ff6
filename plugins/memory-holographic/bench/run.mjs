/**
 * Benchmark of the holographic memory (`npm run bench` in plugins/memory-holographic, after
 * `npx tsup`). Prints numbers; the target is printed beside them, not asserted. The
 * database lives in a temporary directory removed afterwards.
 *
 * Search over 100,000 facts (BENCH_FACTS to change): insert time, then 300 queries of common,
 * mid-frequency and rare words, two to six words each, p50 / p95 / max of `search(query, {limit: 5})`.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

const entry = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const { HolographicFactStore, FactRetriever } = await import(pathToFileURL(entry).href);

const FACTS = Number(process.env.BENCH_FACTS ?? 100_000);
const QUERIES = 300;
const root = mkdtempSync(join(tmpdir(), 'hermes-holographic-bench-'));

// A deterministic generator, so every run measures the same corpus.
let seed = 42;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
// Zipf-like: a few very common words, a long tail of rare ones.
const vocabulary = Array.from({ length: 8_000 }, (_, i) => `w${i.toString(36)}x`);
const word = () => vocabulary[Math.floor(vocabulary.length * random() ** 2.5)];
const names = Array.from({ length: 2_000 }, (_, i) => `Proj${i.toString(36)}`);
const fact = (i) => {
  const words = Array.from({ length: 6 + Math.floor(random() * 8) }, word);
  return {
    content: `${names[i % names.length]} ${words.join(' ')} k${i % 997}`,
    category: `c${i % 8}`,
  };
};

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

try {
  const store = new HolographicFactStore({ path: join(root, 'memory_store.db') });
  const started = performance.now();
  for (let i = 0; i < FACTS; i += 5_000) {
    store.addFacts(Array.from({ length: Math.min(5_000, FACTS - i) }, (_, k) => fact(i + k)));
  }
  const insertMs = performance.now() - started;
  const size =
    statSync(join(root, 'memory_store.db')).size + statSync(join(root, 'memory_store.db-wal')).size;
  const retriever = new FactRetriever(store);
  const queries = Array.from({ length: QUERIES }, () =>
    Array.from({ length: 2 + Math.floor(random() * 5) }, word).join(' '),
  );
  for (const query of queries.slice(0, 20)) retriever.search(query, { limit: 5 }); // warm-up
  const times = [];
  let hits = 0;
  for (const query of queries) {
    const t = performance.now();
    hits += retriever.search(query, { limit: 5 }).length;
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const ms = (v) => `${v.toFixed(2)} ms`;
  console.log(`holographic memory, ${FACTS.toLocaleString('en-US')} facts (dim 1,024)`);
  console.log(
    `  insert: ${(insertMs / 1000).toFixed(1)} s (${((FACTS / insertMs) * 1000).toFixed(0)} facts/s), database ${(size / 2 ** 20).toFixed(0)} MiB`,
  );
  console.log(
    `  search (limit 5, ${QUERIES} queries, ${(hits / QUERIES).toFixed(1)} results avg): p50 ${ms(percentile(times, 50))}, p95 ${ms(percentile(times, 95))} (target ≤ 30 ms), max ${ms(times.at(-1))}`,
  );
  store.close();
} finally {
  rmSync(root, { recursive: true, force: true });
}
