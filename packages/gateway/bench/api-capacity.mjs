/**
 * How many concurrent streaming chat completions one gateway process serves, in the steady
 * state, and what it adds to each: the companion of api-latency.mjs, which sends each round's
 * requests all at once (a burst). Here every client sends its next request as soon as its last
 * stream ended (a closed loop, as `wrk -c N` or `autocannon -c N` load a server), so N requests
 * are in flight at every moment and arrivals spread out the way they do on a busy server.
 *
 *   npx tsup && node bench/api-capacity.mjs [--gateway] [--levels=25,50,100,200] [--seconds=8]
 *
 * Same three processes as api-latency.mjs (the scripted model and the load generator in child
 * processes). For each concurrency level: the model alone for `--seconds`, then through the API
 * server for `--seconds`; the first two seconds of each are the ramp and are not counted. Behind
 * the server: the minimal pipeline stand-in (default) or `--gateway`, the real Gateway with
 * agents on shared components, each client continuing its own session (agents cached, as on a
 * busy server). Added latency is the difference of the percentiles (through the server minus
 * the model's own at the same concurrency). Also the throughput, the server process's CPU per
 * request and its event loop's utilization: a loop near 100% is saturated, and its requests
 * queue. Prints; asserts nothing.
 */
import { ApiServerAdapter, resolveApiServerSettings } from '../dist/index.js';
import { startBenchGateway } from './support/bench-gateway.mjs';
import { startLoad } from './support/load-generator.mjs';
import { machineLine, percentile } from './support/measure.mjs';
import { startModel } from './support/model-server.mjs';
import { standIn } from './support/stand-ins.mjs';

const KEY = 'bench-key-0123456789abcdef';
const ANSWER = 'The quick brown fox jumps over the lazy dog, twice.';
const DELAY_MS = Number(process.env.BENCH_DELAY_MS ?? 50);
const WARMUP_MS = 2_000;
const GATEWAY = process.argv.includes('--gateway');
const arg = (name, fallback) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const LEVELS = arg('levels', '25,50,100,200').split(',').map(Number);
const SECONDS = Number(arg('seconds', 8));

/** The API server with the stand-in or the real Gateway behind it; resolves `close()`. */
async function serve(adapter, modelUrl) {
  if (!GATEWAY) {
    await adapter.connect(standIn(modelUrl, false, new Map()));
    return { close: () => adapter.disconnect() };
  }
  const most = Math.max(...LEVELS) + 56;
  const bench = await startBenchGateway({
    modelUrl,
    gateway: { max_concurrent_turns: most, agent_cache: { max: most } },
    platforms: { api_server: { enabled: true } },
    adapters: [adapter],
  });
  return { close: () => bench.close() };
}

/** p50 and p99 of `key` over `rows`. */
function stats(rows, key) {
  const sorted = rows.map((row) => row[key]).sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
}

/** One level: the model alone, then through the server; one printed line. */
async function level(load, endpoints, concurrency, sessions) {
  const window = { durationMs: SECONDS * 1_000, warmupMs: WARMUP_MS };
  const expect = { key: KEY, answer: ANSWER };
  const direct = await load.steady(endpoints.direct, concurrency, expect, window);
  const loop = performance.eventLoopUtilization();
  const cpu = process.cpuUsage();
  const through = await load.steady(
    endpoints.through,
    concurrency,
    { ...expect, ...(sessions ? { sessions } : {}) },
    window,
  );
  const used = process.cpuUsage(cpu);
  const utilization = performance.eventLoopUtilization(loop).utilization;
  const ok = through.filter((row) => row.ok);
  const seconds = SECONDS - WARMUP_MS / 1_000;
  const cells = ['first', 'last'].map((key) => {
    const model = stats(direct, key);
    const server = stats(ok, key);
    return `${key === 'first' ? 'first token' : 'last byte'} +${(server.p50 - model.p50).toFixed(1)} / +${(server.p99 - model.p99).toFixed(1)} ms`;
  });
  const perRequest = (used.user + used.system) / 1_000 / Math.max(1, through.length);
  console.log(
    `${String(concurrency).padStart(4)} clients  ${(ok.length / seconds).toFixed(0).padStart(4)} req/s  ` +
      `added p50/p99: ${cells.join(', ')}  (model p99 ${stats(direct, 'first').p99.toFixed(0)} / ` +
      `${stats(direct, 'last').p99.toFixed(0)} ms)  CPU ${perRequest.toFixed(2)} ms/req  ` +
      `loop ${(utilization * 100).toFixed(0)}%  ${through.length - ok.length} failed`,
  );
}

async function main() {
  const model = await startModel({ answer: ANSWER, delayMs: DELAY_MS });
  const adapter = new ApiServerAdapter({
    settings: resolveApiServerSettings({ key: KEY, port: 0, max_concurrent_runs: 0 }),
  });
  const server = await serve(adapter, model.url);
  const endpoints = {
    direct: `${model.url}/chat/completions`,
    through: `http://127.0.0.1:${adapter.listening.port}/v1/chat/completions`,
  };
  const load = await startLoad();
  console.log(
    `api_server capacity: closed-loop clients, ${SECONDS} s per level (${WARMUP_MS / 1_000} s ramp ` +
      `not counted), model delay ${DELAY_MS} ms/frame, behind the server: ` +
      `${GATEWAY ? 'real Gateway, each client continuing its session' : 'stand-in (node:http)'}; ` +
      `${await machineLine()}`,
  );
  // One request per client first: JIT, keep-alive sockets and (with the Gateway) the sessions
  // and cached agents the clients continue.
  const most = Math.max(...LEVELS);
  const warm = await load.run(endpoints.through, most, { key: KEY, answer: ANSWER });
  const sessions = GATEWAY ? warm.map((row) => row.session) : undefined;
  for (const concurrency of LEVELS) await level(load, endpoints, concurrency, sessions);
  load.close();
  await server.close();
  await model.close();
  console.log('target (issue 17): added p99 ≤ 25 ms at 200 concurrent streams');
}

await main();
