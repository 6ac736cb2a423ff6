/**
 * Benchmarks of both session store backends side by side (`node bench/backends.mjs` in
 * packages/state, after `npx tsup`): the numbers issue 24 asks for. Prints numbers only.
 *
 * (a) Search p95 over BENCH_SEARCH_ROWS stored messages (default 1,000,000) on SQLite and on
 *     PostgreSQL: the same synthetic corpus (corpus.mjs), bulk-loaded through the store's own
 *     `appendMessages` in 5,000-message calls (one transaction each: SQLite's batched FTS index,
 *     PostgreSQL's multi-row INSERTs), then ~200 queries through the store's real `search()`.
 * (b) Appends per second per process, one process and two processes at once, on both backends:
 *     each child process appends BENCH_APPEND_TURNS turns (one `appendMessages` call of a user
 *     and an assistant message) to its own session after a common start signal.
 *
 * PostgreSQL: HERMES_TEST_POSTGRES_URL when set, else a throwaway server from
 * tools/test-setup/postgres.sh (started and stopped here). BENCH_SKIP=search|append skips a part;
 * BENCH_BACKENDS=sqlite|postgres runs one backend (default both).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { messageFactory, queries, vocabulary } from './corpus.mjs';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const { openSessionStore } = await import(join(dist, 'index.js'));
const { PostgresSessionStore } = await import(join(dist, 'postgres.js'));
const ROWS = Number(process.env.BENCH_SEARCH_ROWS ?? 1_000_000);
const TURNS = Number(process.env.BENCH_APPEND_TURNS ?? 1_000);
const SKIP = process.env.BENCH_SKIP ?? '';
const BACKENDS = process.env.BENCH_BACKENDS ?? 'sqlite,postgres';
const script = fileURLToPath(new URL('../../../tools/test-setup/postgres.sh', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'hermes-backends-bench-'));

const ms = (value) => `${value.toFixed(1)} ms`;
const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** A PostgreSQL URL: the test server's, or one started here (stopped at exit). */
function postgresServer() {
  if (process.env.HERMES_TEST_POSTGRES_URL) {
    return { url: process.env.HERMES_TEST_POSTGRES_URL, stop() {} };
  }
  const [url, dir] = execFileSync('bash', [script, 'start'], { encoding: 'utf8' })
    .trim()
    .split(' ');
  return { url, stop: () => execFileSync('bash', [script, 'stop', dir]) };
}

/** A fresh database on the server, for one backend run. */
async function freshDatabase(serverUrl, name) {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function load(store, words) {
  const make = messageFactory(words, 11);
  const start = performance.now();
  for (let seq = 0; seq < ROWS; ) {
    const session = await store.createSession({ source: seq % 3 === 0 ? 'telegram' : 'cli' });
    const count = Math.min(5_000, ROWS - seq);
    await store.appendMessages(
      session.id,
      Array.from({ length: count }, (_, i) => make(seq + i)),
    );
    seq += count;
  }
  return performance.now() - start;
}

/**
 * Loads PostgreSQL with its two GIN indexes dropped and rebuilt afterwards, as a bulk import
 * would: maintaining them row by row made the load ten times slower. The schema ends identical.
 */
async function loadPostgres(store, words) {
  const db = store.database;
  const indexes = await db.query(
    "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = $1 AND indexname LIKE 'messages_search_%'",
    [db.schema],
  );
  for (const { indexname } of indexes) await db.query(`DROP INDEX ${indexname}`);
  const start = performance.now();
  await load(store, words);
  await db.transaction(async (client) => {
    await client.query("SET LOCAL maintenance_work_mem = '512MB'");
    for (const { indexdef } of indexes) await client.query(indexdef);
  });
  await db.query('ANALYZE messages');
  return performance.now() - start;
}

async function searchBench(label, store) {
  const words = vocabulary();
  const loaded =
    label === 'PostgreSQL' ? await loadPostgres(store, words) : await load(store, words);
  console.log(
    `(a) ${label}: ${ROWS.toLocaleString('en')} messages loaded in ${(loaded / 1000).toFixed(1)} s`,
  );
  await store.search('warmup');
  const all = [];
  for (const [name, list] of Object.entries(queries(words))) {
    const times = [];
    for (const query of list) {
      const start = performance.now();
      await store.search(query);
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    all.push(...times);
    console.log(
      `    ${name.padEnd(7)} p50 ${ms(percentile(times, 50))}, p95 ${ms(percentile(times, 95))}`,
    );
  }
  all.sort((a, b) => a - b);
  console.log(
    `    all ${all.length} queries: p50 ${ms(percentile(all, 50))}, p95 ${ms(percentile(all, 95))}, max ${ms(all.at(-1))}`,
  );
}

/** The child of (b): opens the backend, waits for `go`, appends TURNS turns, prints its rate. */
const CHILD = `
import { createInterface } from 'node:readline';
const { dist, backend, target, worker, turns } = JSON.parse(process.argv[1]);
const store = backend === 'sqlite'
  ? (await import(dist + 'index.js')).openSessionStore({ path: target })
  : await (await import(dist + 'postgres.js')).PostgresSessionStore.connect({ url: target, poolSize: 2 });
const session = await store.createSession({ source: 'bench' });
const input = createInterface({ input: process.stdin });
console.log('ready');
await input[Symbol.asyncIterator]().next();
const start = performance.now();
for (let i = 0; i < turns; i++) {
  await store.appendMessages(session.id, [
    { role: 'user', content: worker + ' question ' + i + ' about the deploy' },
    { role: 'assistant', content: worker + ' answer ' + i + ' with some words of text' },
  ]);
}
console.log(String(turns / ((performance.now() - start) / 1000)));
await store.close();
input.close();
`;

async function appendRates(backend, target, processes) {
  const children = Array.from({ length: processes }, (_, i) => {
    const config = { dist, backend, target, worker: `w${i}`, turns: TURNS };
    const child = spawn(
      process.execPath,
      ['--input-type=module', '-e', CHILD, JSON.stringify(config)],
      {
        stdio: ['pipe', 'pipe', 'inherit'],
      },
    );
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    return { child, lines };
  });
  for (const { lines } of children) await lines.next(); // ready
  for (const { child } of children) child.stdin.end('go\n');
  const rates = [];
  for (const { lines } of children) rates.push(Number((await lines.next()).value));
  return rates;
}

async function appendBench(label, backend, target) {
  for (const processes of [1, 2]) {
    const rates = await appendRates(backend, target, processes);
    const each = rates.map((rate) => rate.toFixed(0)).join(' / ');
    console.log(
      `(b) ${label}, ${processes} process(es): ${each} appends/s per process (2 messages each)`,
    );
  }
}

const server = postgresServer();
try {
  if (SKIP !== 'search') {
    if (BACKENDS.includes('sqlite')) {
      const sqlite = openSessionStore({ path: join(root, 'search.db') });
      await searchBench('SQLite', sqlite);
      await sqlite.close();
    }
    if (BACKENDS.includes('postgres')) {
      const url = await freshDatabase(server.url, 'hermes_bench_search');
      const postgres = await PostgresSessionStore.connect({ url });
      await searchBench('PostgreSQL', postgres);
      await postgres.close();
    }
  }
  if (SKIP !== 'append') {
    if (BACKENDS.includes('sqlite')) await appendBench('SQLite', 'sqlite', join(root, 'append.db'));
    if (BACKENDS.includes('postgres')) {
      const url = await freshDatabase(server.url, 'hermes_bench_append');
      await appendBench('PostgreSQL', 'postgres', url);
    }
  }
} finally {
  server.stop();
  rmSync(root, { recursive: true, force: true });
}
