// Startup benchmarks of the built `hermes` binary (build first: `npx tsup`).
//   1. `hermes --version`, cold process, median wall time        target ≤ 120 ms
//   2. `hermes chat -q` from spawn to the first HTTP request
//      recorded by a local testkit server, median               target ≤ 300 ms
//      (with the code cache an earlier run wrote; without it, printed as "cold")
// Bare `node -e 0` and an empty ES module are printed beside them as the floor. Numbers are printed, not asserted.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { script, startScriptedServer } from '@hermes/testkit';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 15);

function run(args, env, cwd) {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const t0 = performance.now();
    const child = spawn(process.execPath, args, { env, cwd, stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, started, ms: performance.now() - t0 }));
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

const home = mkdtempSync(join(tmpdir(), 'hermes-bench-home-'));
const work = mkdtempSync(join(tmpdir(), 'hermes-bench-work-'));
const env = { ...process.env, HERMES_HOME: home, NO_COLOR: '1' };

const emptyModule = join(work, 'empty.mjs');
writeFileSync(emptyModule, '');
const floor = [];
const esmFloor = [];
const version = [];
for (let i = 0; i < RUNS; i += 1) {
  floor.push((await run(['-e', '0'], env, work)).ms);
  esmFloor.push((await run([emptyModule], env, work)).ms);
  const r = await run([bin, '--version'], env, work);
  if (r.code !== 0) throw new Error('hermes --version failed');
  version.push(r.ms);
}

const server = await startScriptedServer(
  script()
    .text('ok')
    .times(2 * RUNS + 1),
);
writeFileSync(
  join(home, 'config.yaml'),
  `model:\n  provider: openai\n  default: scripted-model\n  base_url: ${server.url}/v1\n`,
);
async function chatOnce() {
  const before = server.requests.length;
  const r = await run([bin, 'chat', '-q', 'hello', '--quiet'], env, work);
  const request = server.requests[before];
  if (r.code !== 0 || !request) throw new Error(`hermes chat -q failed (exit ${r.code})`);
  return { first: request.time - r.started, total: r.ms };
}
// Warm: the code cache written by the first run (HERMES_HOME/cache/code-cache) is in place, as
// for every run after a user's first. Cold: it is deleted before each run.
const codeCache = join(home, 'cache', 'code-cache');
await chatOnce();
const firstRequest = [];
const total = [];
const coldFirstRequest = [];
for (let i = 0; i < RUNS; i += 1) {
  const warm = await chatOnce();
  firstRequest.push(warm.first);
  total.push(warm.total);
  rmSync(codeCache, { recursive: true, force: true });
  coldFirstRequest.push((await chatOnce()).first);
}
await server.close();
rmSync(home, { recursive: true, force: true });
rmSync(work, { recursive: true, force: true });

const fmt = (ms) => `${ms.toFixed(0).padStart(5)} ms`;
console.log(`runs: ${RUNS} each (median)`);
console.log(`node -e 0 (floor)                      ${fmt(median(floor))}`);
console.log(`node empty.mjs (ESM floor)             ${fmt(median(esmFloor))}`);
console.log(`hermes --version                       ${fmt(median(version))}   target ≤ 120 ms`);
console.log(
  `hermes chat -q → first HTTP request    ${fmt(median(firstRequest))}   target ≤ 300 ms`,
);
console.log(`hermes chat -q, whole run              ${fmt(median(total))}`);
console.log(
  `hermes chat -q → first request, cold   ${fmt(median(coldFirstRequest))}   (no code cache yet)`,
);
