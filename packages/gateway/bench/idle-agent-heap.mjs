/**
 * Heap held by one idle cached agent in the real Gateway (issue 17: ≤ 200 KB).
 *
 *   npx tsup && node --expose-gc bench/idle-agent-heap.mjs [sessions=500] [--warmup=50]
 *
 * A testkit model in a child process answers every request with one short sentence. Agents come
 * from `createAgent` on shared components (as `hermes-gateway` builds them), through the
 * Gateway's own AgentCache, its `max` raised above the session count so every agent stays.
 * Warm-up: `warmup` sessions, each one turn, then `/new` in each (the agent is evicted and
 * closed), so JIT code, module caches and the shared parts' lazy state are in the baseline.
 * Then N sessions (a new user in a new DM each) run one short turn and leave their agent idle in
 * the cache. After full GCs it prints
 *
 * - heap per idle cached session: (heap with N cached − baseline) / N — everything a session
 *   leaves in this process (the agent, its session slot and approval handler, its `/usage`
 *   tally), and
 * - heap per idle cached agent: (heap with N cached − heap after `/new` in each) / N — what
 *   evicting the agent gives back.
 *
 * Prints; asserts nothing.
 */
import { BenchChatAdapter, startBenchGateway } from './support/bench-gateway.mjs';
import { kb, machineLine, mb, numberArg, requireGc, settleMemory } from './support/measure.mjs';
import { startModel } from './support/model-server.mjs';

requireGc('idle-agent-heap.mjs');
const SESSIONS = numberArg(undefined, 500);
const WARMUP = numberArg('warmup', 50);
const ANSWER = 'Hello! How can I help?';

const model = await startModel({ answer: ANSWER });
const adapter = new BenchChatAdapter();
const bench = await startBenchGateway({
  modelUrl: model.url,
  gateway: { allow_all_users: true, agent_cache: { max: 2 * (SESSIONS + WARMUP) } },
  adapters: [adapter],
});
let failed = 0;

/** One short turn in chat `name`; counts a missing answer. */
async function turn(name) {
  await adapter.say(name, `user-${name}`, `hi from ${name}`);
  await bench.gateway.settled();
  if (adapter.last?.chatId !== name || adapter.last.text !== ANSWER) failed += 1;
}

/** `/new` in each chat: the route is dropped and the cached agent evicted and closed. */
async function forgetAll(names) {
  for (const name of names) {
    await adapter.say(name, `user-${name}`, '/new');
    await bench.gateway.settled();
  }
}

const warm = Array.from({ length: WARMUP }, (_, i) => `warm-${i}`);
for (const name of warm) await turn(name);
await forgetAll(warm);
await model.forget();
const baseline = await settleMemory();
const cachedBefore = bench.gateway.health().cachedAgents;

const names = Array.from({ length: SESSIONS }, (_, i) => `chat-${i}`);
const started = performance.now();
for (const name of names) await turn(name);
const elapsed = (performance.now() - started) / SESSIONS;
await model.forget();
const cached = await settleMemory();
const cachedDuring = bench.gateway.health().cachedAgents;

await forgetAll(names);
const evicted = await settleMemory();
const cachedAfter = bench.gateway.health().cachedAgents;

console.log(
  `idle cached agents: ${SESSIONS} sessions after ${WARMUP} warm-up, ${await machineLine()}`,
);
console.log(`${failed} turns without the expected answer; ${elapsed.toFixed(1)} ms per session`);
console.log(
  `cached agents: ${cachedBefore} at baseline, ${cachedDuring} with the sessions, ` +
    `${cachedAfter} after /new in each (built ${bench.agents.built}, closed ${bench.agents.closed})`,
);
console.log(`heap at baseline:           ${mb(baseline.heapUsed)}   rss ${mb(baseline.rss)}`);
console.log(`heap with ${SESSIONS} idle agents: ${mb(cached.heapUsed)}   rss ${mb(cached.rss)}`);
console.log(`heap after evicting them:   ${mb(evicted.heapUsed)}   rss ${mb(evicted.rss)}`);
console.log(
  `heap per idle cached session: ${kb((cached.heapUsed - baseline.heapUsed) / SESSIONS)}` +
    `   (rss ${kb((cached.rss - baseline.rss) / SESSIONS)})`,
);
console.log(
  `heap per idle cached agent:   ${kb((cached.heapUsed - evicted.heapUsed) / SESSIONS)}` +
    '   (released by eviction; target ≤ 200 KB)',
);
await bench.close();
await model.close();
