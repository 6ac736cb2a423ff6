/**
 * RSS over many short sessions through the real Gateway (issue 17: 10,000 sequential short
 * sessions, RSS after the last ≤ 1.2× RSS after the first 1,000).
 *
 *   npx tsup && node --expose-gc bench/sessions-rss.mjs [sessions=10000] [--step=1000] [--snapshots]
 *
 * A testkit model in a child process answers every request with one short sentence. Each
 * message comes from a new user in a new DM (so a new session key, a new stored session and a new
 * agent) through an in-memory chat adapter, and the next is sent once the gateway has settled
 * and the answer was delivered. The agent cache runs at its defaults (128 agents, 1 h idle TTL),
 * so from the 129th session on every new agent evicts the least recently used one. After every
 * `step` sessions it collects garbage and prints RSS, heap used, external memory and the agent
 * counts. `--snapshots` writes a heap snapshot at the first and the last sample (diff them in
 * DevTools' Memory tab when RSS grows). Prints; asserts nothing.
 */
import { BenchChatAdapter, startBenchGateway } from './support/bench-gateway.mjs';
import {
  machineLine,
  mb,
  numberArg,
  requireGc,
  settleMemory,
  snapshot,
} from './support/measure.mjs';
import { startModel } from './support/model-server.mjs';

requireGc('sessions-rss.mjs');
const SESSIONS = numberArg(undefined, 10_000);
const STEP = numberArg('step', 1_000);
const ANSWER = 'Sure, done.';

const model = await startModel({ answer: ANSWER });
const adapter = new BenchChatAdapter();
const bench = await startBenchGateway({
  modelUrl: model.url,
  gateway: { allow_all_users: true },
  adapters: [adapter],
});
const snapshots = process.argv.includes('--snapshots') ? bench.home : undefined;

console.log(`gateway sessions: ${SESSIONS} sequential short sessions, ${await machineLine()}`);
console.log('sessions   rss        heap used  external   cached  built  closed  ms/session');
const samples = [];
let failed = 0;
let stepStarted = performance.now();
for (let index = 1; index <= SESSIONS; index += 1) {
  const chatId = `chat-${index}`;
  await adapter.say(chatId, `user-${index}`, `hello ${index}`);
  await bench.gateway.settled();
  if (adapter.last?.chatId !== chatId || adapter.last.text !== ANSWER) failed += 1;
  if (index % STEP !== 0) continue;
  const elapsed = (performance.now() - stepStarted) / STEP;
  await model.forget();
  const memory = await settleMemory();
  const cached = bench.gateway.health().cachedAgents;
  samples.push({ index, ...memory });
  console.log(
    `${String(index).padStart(8)}   ${mb(memory.rss).padEnd(9)}  ${mb(memory.heapUsed).padEnd(9)}  ` +
      `${mb(memory.external).padEnd(9)}  ${String(cached).padStart(6)}  ` +
      `${String(bench.agents.built).padStart(5)}  ${String(bench.agents.closed).padStart(6)}  ` +
      `${elapsed.toFixed(1).padStart(10)}`,
  );
  if (snapshots && (index === STEP || index === SESSIONS)) {
    console.log(`  heap snapshot: ${snapshot(snapshots, `sessions-${index}`)}`);
  }
  stepStarted = performance.now();
}

const first = samples[0];
const last = samples.at(-1);
console.log(`${failed} sessions without the expected answer`);
console.log(
  `rss after ${last.index} / after ${first.index}: ${(last.rss / first.rss).toFixed(3)} ` +
    `(${mb(first.rss)} → ${mb(last.rss)}; target ≤ 1.2)`,
);
console.log(
  `heap used after ${last.index} / after ${first.index}: ${(last.heapUsed / first.heapUsed).toFixed(3)} ` +
    `(${mb(first.heapUsed)} → ${mb(last.heapUsed)})`,
);
if (snapshots) console.log(`snapshots kept in ${snapshots} (not removed)`);
await (snapshots ? bench.gateway.stop() : bench.close());
await model.close();
