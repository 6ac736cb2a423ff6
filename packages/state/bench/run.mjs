/**
 * Benchmarks of the SQLite session store (`npm run bench` in packages/state, after `npx tsup`).
 * Prints numbers only; the targets from issue 4 are printed next to them for reading, not
 * asserted. Every database lives in a fresh temporary directory that is removed afterwards.
 *
 * (a) Append 10,000 messages: as the loop does (one `appendMessages` per turn of 4 messages) and
 *     as one 10,000-message call.
 * (b) Full-text search over 1,000,000 messages (BENCH_FTS_ROWS to change): corpus generation time,
 *     then ~200 queries of common, mid-frequency, rare, two-word and CJK terms; p50/p95/max.
 * (c) `archiveAndCompact` of a session with 5,000 active messages.
 * (d) Four processes appending concurrently for 10 s (BENCH_CONCURRENT_MS to change): rows
 *     appended, lost, duplicated.
 *
 * The module under test is `../dist/index.js`; set STATE_BENCH_MODULE to a path to use another.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { concurrentWriters } from './concurrent.mjs';
import { messageFactory, queries, vocabulary } from './corpus.mjs';

const entry = process.env.STATE_BENCH_MODULE
  ? resolve(process.env.STATE_BENCH_MODULE)
  : fileURLToPath(new URL('../dist/index.js', import.meta.url));
const { openSessionStore } = await import(pathToFileURL(entry).href);
if (typeof openSessionStore !== 'function') {
  console.error(`${entry} does not export openSessionStore: run \`npx tsup\` in packages/state.`);
  process.exit(1);
}

const FTS_ROWS = Number(process.env.BENCH_FTS_ROWS ?? 1_000_000);
const CONCURRENT_MS = Number(process.env.BENCH_CONCURRENT_MS ?? 10_000);
const root = mkdtempSync(join(tmpdir(), 'hermes-state-bench-'));

const ms = (value) => `${value.toFixed(1)} ms`;
function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
async function timed(fn) {
  const start = performance.now();
  const value = await fn();
  return { value, elapsed: performance.now() - start };
}

/** Lets the store's idle-time index flush run, as it does between a real agent's turns. */
const idle = () => new Promise((resolve) => setTimeout(resolve, 1_200));

async function benchAppend() {
  const store = await openSessionStore({ path: join(root, 'append.db') });
  const make = messageFactory(vocabulary(), 3);
  const warm = await store.createSession({ source: 'bench' });
  await store.appendMessages(
    warm.id,
    Array.from({ length: 200 }, (_, i) => make(i)),
  );
  // Three rounds each, median reported: single runs on a shared 2-core machine are noisy.
  const loops = [];
  const onces = [];
  for (let round = 0; round < 3; round += 1) {
    const turns = await store.createSession({ source: 'bench' });
    const messages = Array.from({ length: 10_000 }, (_, i) => make(i));
    loops.push(
      await timed(async () => {
        for (let i = 0; i < messages.length; i += 4) {
          await store.appendMessages(turns.id, messages.slice(i, i + 4));
        }
      }),
    );
    await idle(); // as between real turns: the background index flush runs
    const single = await store.createSession({ source: 'bench' });
    const bulk = Array.from({ length: 10_000 }, (_, i) => make(i));
    onces.push(await timed(() => store.appendMessages(single.id, bulk)));
    await idle();
  }
  const median = (runs) => runs.map((r) => r.elapsed).sort((a, b) => a - b)[1];
  const loop = { elapsed: median(loops) };
  const once = { elapsed: median(onces) };
  await store.close();
  console.log('(a) append 10,000 messages (target ≤ 500 ms)');
  console.log(`    2,500 calls of one 4-message turn each: ${ms(loop.elapsed)} (median of 3)`);
  console.log(`    one call of 10,000 messages:           ${ms(once.elapsed)} (median of 3)`);
}

async function buildCorpus(store, words) {
  const make = messageFactory(words, 11);
  const perSession = Math.min(5_000, FTS_ROWS);
  let seq = 0;
  const { elapsed } = await timed(async () => {
    while (seq < FTS_ROWS) {
      const session = await store.createSession({ source: seq % 3 === 0 ? 'telegram' : 'cli' });
      const count = Math.min(perSession, FTS_ROWS - seq);
      const batch = Array.from({ length: count }, (_, i) => make(seq + i));
      await store.appendMessages(session.id, batch);
      seq += count;
    }
  });
  return elapsed;
}

async function benchSearch() {
  const path = join(root, 'search.db');
  const store = await openSessionStore({ path });
  const words = vocabulary();
  const generation = await buildCorpus(store, words);
  console.log(
    `(b) full-text search over ${FTS_ROWS.toLocaleString('en')} messages (target p95 ≤ 30 ms)`,
  );
  console.log(
    `    corpus generation: ${(generation / 1000).toFixed(1)} s, ${(statSync(path).size / 2 ** 20).toFixed(0)} MiB`,
  );
  const groups = queries(words);
  await store.search('warmup');
  const all = [];
  for (const [name, list] of Object.entries(groups)) {
    const times = [];
    let hits = 0;
    for (const query of list) {
      const run = await timed(() => store.search(query));
      times.push(run.elapsed);
      hits += run.value.length;
    }
    times.sort((a, b) => a - b);
    all.push(...times);
    const summary = `p50 ${ms(percentile(times, 50))}, p95 ${ms(percentile(times, 95))}, max ${ms(times.at(-1))}`;
    console.log(
      `    ${name.padEnd(7)} ${String(list.length).padStart(3)} queries: ${summary}, ${(hits / list.length).toFixed(1)} hits/query`,
    );
  }
  all.sort((a, b) => a - b);
  console.log(
    `    all     ${all.length} queries: p50 ${ms(percentile(all, 50))}, p95 ${ms(percentile(all, 95))}, max ${ms(all.at(-1))}`,
  );
  await store.close();
}

async function benchCompact() {
  const store = await openSessionStore({ path: join(root, 'compact.db') });
  const make = messageFactory(vocabulary(), 5);
  const results = [];
  for (let round = 0; round < 3; round++) {
    const session = await store.createSession({ source: 'bench' });
    const history = Array.from({ length: 5_000 }, (_, i) => make(i));
    await store.appendMessages(session.id, history);
    const replacement = [
      { role: 'user', content: '[summary] what happened so far' },
      ...history.slice(-4),
    ];
    const run = await timed(() => store.archiveAndCompact(session.id, { replacement }));
    results.push(`${ms(run.elapsed)} (${run.value.archivedCount} archived)`);
  }
  await store.close();
  console.log('(c) archiveAndCompact of 5,000 active messages (target ≤ 200 ms)');
  console.log(`    three sessions: ${results.join(', ')}`);
}

async function benchConcurrent() {
  const result = await concurrentWriters({
    openSessionStore,
    entry,
    dbPath: join(root, 'concurrent.db'),
    workers: 4,
    durationMs: CONCURRENT_MS,
  });
  console.log(
    `(d) four processes appending for ${CONCURRENT_MS / 1000} s (target: zero lost, zero duplicated)`,
  );
  console.log(
    `    rows appended: ${result.appended.toLocaleString('en')} in ${result.appends.toLocaleString('en')} appendMessages calls`,
  );
  console.log(
    `    lost: ${result.lost}, duplicated: ${result.duplicated}, unexpected: ${result.unexpected}, counter mismatches: ${result.counterMismatches}`,
  );
}

try {
  console.log(`@hermes/state benchmarks — node ${process.version}, ${entry}`);
  await benchAppend();
  await benchCompact();
  await benchConcurrent();
  await benchSearch();
} finally {
  rmSync(root, { recursive: true, force: true });
}
