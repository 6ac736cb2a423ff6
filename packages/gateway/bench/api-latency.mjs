/**
 * The added latency of the API server and the gateway behind it (issue 17: 200 concurrent
 * streaming chat completions against the testkit with 50 ms model latency, p99 added ≤ 25 ms).
 *
 *   npx tsup && node bench/api-latency.mjs [--gateway [--sessions] | --agent | --openai]
 *
 * Three processes, so none steals another's event loop:
 *
 * - a @hermes/testkit scripted model (child, support/model-server.mjs): every chat completion
 *   streams the same 51-character answer with BENCH_DELAY_MS (default 50) before each frame;
 * - this process: the ApiServerAdapter, and behind it
 *   - by default a minimal pipeline stand-in that streams the model with `node:http` and
 *     forwards each text delta to the request's sink (`--openai`: with the official client),
 *   - `--agent`: a real Agent from `createAgent` per message, without the gateway,
 *   - `--gateway`: the real Gateway (pipeline, session directory, lane, agent cache at its
 *     defaults, delivery to the API sink, the SQLite gateway store) with agents from
 *     `createAgent` on shared components, as `hermes-gateway` runs it. Each request is a new
 *     session (no `X-Hermes-Session-Id`: a new agent, a new stored session); with `--sessions`
 *     each client continues the session its warm-up request started (the agent is cached: the
 *     cache is raised to hold them all), the steady state of a busy server;
 * - a load generator (child, support/load-generator.mjs): BENCH_CONCURRENCY (default 200)
 *   concurrent streaming chat completions per round, each timed to its first content token and
 *   to the end of its stream.
 *
 * Rounds alternate between the model itself, a bare `node:http` proxy (the floor) and the API
 * server, BENCH_ROUNDS (default 3) of each after one warm-up of each. Added latency is the
 * difference of the distributions' percentiles (through the server minus the model's own), for
 * the first token and the last byte; with the stand-in also each request paired with its own
 * model call. Also the server process's CPU time per request through it (user + system, from
 * `process.cpuUsage()` over the rounds through the server), which the machine's load does not
 * inflate the way it inflates latency. Prints; asserts nothing.
 */
import { ApiServerAdapter, resolveApiServerSettings } from '../dist/index.js';
import { startBenchGateway } from './support/bench-gateway.mjs';
import { startLoad } from './support/load-generator.mjs';
import { machineLine, percentile } from './support/measure.mjs';
import { startModel } from './support/model-server.mjs';
import { agentPipeline, bareProxy, standIn } from './support/stand-ins.mjs';

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DELAY_MS = Number(process.env.BENCH_DELAY_MS ?? 50);
const KEY = 'bench-key-0123456789abcdef';
const ANSWER = 'The quick brown fox jumps over the lazy dog, twice.';
const PERCENTILES = [50, 90, 99];
const SESSIONS = process.argv.includes('--sessions');
const MODES = {
  '--gateway': 'real Gateway, agents on shared components',
  '--agent': 'real Agent per message, no gateway',
  '--openai': 'stand-in (openai client)',
  standIn: 'stand-in (node:http)',
};

function line(label, values) {
  const sorted = [...values].sort((a, b) => a - b);
  const cells = PERCENTILES.map((p) => `p${p} ${percentile(sorted, p).toFixed(1).padStart(6)}`);
  return `${label.padEnd(30)} ${cells.join('  ')}  max ${sorted.at(-1).toFixed(1).padStart(6)} ms`;
}

function added(label, through, direct) {
  const a = [...through].sort((x, y) => x - y);
  const b = [...direct].sort((x, y) => x - y);
  const cells = PERCENTILES.map(
    (p) => `p${p} ${(percentile(a, p) - percentile(b, p)).toFixed(1).padStart(6)}`,
  );
  return `${label.padEnd(30)} ${cells.join('  ')} ms`;
}

/**
 * Connects `adapter` to what `mode` puts behind it; resolves with `close()`. The Gateway
 * connects the adapter itself (its `start()`), the others hand it a handler.
 */
async function behind(mode, adapter, modelUrl, timings) {
  if (mode === '--gateway') {
    const bench = await startBenchGateway({
      modelUrl,
      gateway: {
        // Turns in parallel across sessions: enough for every request of a round at once.
        max_concurrent_turns: CONCURRENCY + 56,
        ...(SESSIONS ? { agent_cache: { max: CONCURRENCY + 56 } } : {}),
      },
      platforms: { api_server: { enabled: true } },
      adapters: [adapter],
    });
    return { close: () => bench.close() };
  }
  if (mode === '--agent') {
    const agent = await agentPipeline(modelUrl);
    await adapter.connect(agent.handler);
    return { close: () => adapter.disconnect().then(agent.cleanup) };
  }
  await adapter.connect(standIn(modelUrl, mode === '--openai', timings));
  return { close: () => adapter.disconnect() };
}

/** Each request against the stand-in's own model call: what the server adds around the model. */
function printPaired(rows, timings) {
  const paired = rows.flatMap((row) => {
    const inner = timings.get(row.id);
    if (!inner?.last) return [];
    return [
      {
        first: row.first - (inner.first - inner.sent),
        last: row.last - (inner.last - inner.sent),
        inbound: inner.start - row.sent,
      },
    ];
  });
  console.log(`paired with the stand-in's own model call (${paired.length} requests):`);
  console.log(
    line(
      'request sent → pipeline called',
      paired.map((p) => p.inbound),
    ),
  );
  console.log(
    line(
      'added, first token',
      paired.map((p) => p.first),
    ),
  );
  console.log(
    line(
      'added, last byte',
      paired.map((p) => p.last),
    ),
  );
}

async function main(mode) {
  const model = await startModel({ answer: ANSWER, delayMs: DELAY_MS });
  const adapter = new ApiServerAdapter({
    // 0: no cap on running turns, so all of a round's requests run at once.
    settings: resolveApiServerSettings({ key: KEY, port: 0, max_concurrent_runs: 0 }),
  });
  const timings = new Map();
  const pipeline = await behind(mode, adapter, model.url, timings);
  const proxy = await bareProxy(model.url);
  const endpoints = {
    direct: `${model.url}/chat/completions`,
    proxy: `http://127.0.0.1:${proxy.address().port}/chat/completions`,
    through: `http://127.0.0.1:${adapter.listening.port}/v1/chat/completions`,
  };
  const load = await startLoad();
  const rows = { direct: [], proxy: [], through: [] };
  let failed = 0;
  let sessions;
  let cpu = 0;
  for (let round = 0; round <= ROUNDS; round += 1) {
    for (const path of ['direct', 'proxy', 'through']) {
      const expect = { key: KEY, answer: ANSWER, ...(path === 'through' ? { sessions } : {}) };
      const used = process.cpuUsage();
      const results = await load.run(endpoints[path], CONCURRENCY, expect);
      if (path === 'through' && SESSIONS) sessions ??= results.map((r) => r.session);
      if (round === 0) continue; // warm-up: JIT, keep-alive sockets, SQLite files, sessions
      if (path === 'through') {
        const { user, system } = process.cpuUsage(used);
        cpu += (user + system) / 1_000;
      }
      failed += results.filter((r) => !r.ok).length;
      rows[path].push(...results.filter((r) => r.ok));
    }
  }
  load.close();
  proxy.close();
  await pipeline.close();
  await model.close();

  const pick = (path, key) => rows[path].map((row) => row[key]);
  console.log(
    `api_server latency: ${CONCURRENCY} concurrent streaming chat completions, ${ROUNDS} rounds ` +
      `each way, model delay ${DELAY_MS} ms/frame, behind the server: ${MODES[mode]}` +
      `${SESSIONS ? ', each client continuing its session' : ''}, ` +
      `${failed} failed; ${await machineLine()}`,
  );
  console.log(line('model, first token', pick('direct', 'first')));
  console.log(line('through server, first token', pick('through', 'first')));
  console.log(line('model, last byte', pick('direct', 'last')));
  console.log(line('through server, last byte', pick('through', 'last')));
  console.log(line('bare proxy, first token', pick('proxy', 'first')));
  console.log(line('bare proxy, last byte', pick('proxy', 'last')));
  console.log(added('added, first token', pick('through', 'first'), pick('direct', 'first')));
  console.log(added('added, last byte', pick('through', 'last'), pick('direct', 'last')));
  console.log(
    added('bare proxy adds, first token', pick('proxy', 'first'), pick('direct', 'first')),
  );
  console.log(added('bare proxy adds, last byte', pick('proxy', 'last'), pick('direct', 'last')));
  console.log(
    `server process CPU per request through it: ${(cpu / (ROUNDS * CONCURRENCY)).toFixed(2)} ms`,
  );
  if (timings.size > 0) printPaired(rows.through, timings);
  console.log('target: added p99 ≤ 25 ms');
}

await main(Object.keys(MODES).find((flag) => process.argv.includes(flag)) ?? 'standIn');
