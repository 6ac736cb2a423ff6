// Where `hermes chat -q hi` spends its start-up (build first: `npx tsup`): warm runs in a user-
// like data home with HERMES_TRACE_STARTUP=1, whose marks (src/startup-trace.ts) give each phase's
// wall time and the process's CPU time, median over the runs, beside `node -e 0`'s CPU time.
//
//   node bench/phases.mjs                  BENCH_RUNS=21 for more runs (default 11)
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { script, startScriptedServer } from '@hermes/testkit';
import { userHome } from './user-home.mjs';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 11);
const server = await startScriptedServer(script().text('ok').times(1_000_000));
const home = userHome(`${server.url}/v1`);
const work = mkdtempSync(join(tmpdir(), 'hermes-phases-'));

function run(args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: work,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stdout.resume();
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      err += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(err) : reject(new Error(`exit ${code}: ${err}`)),
    );
  });
}

/** `hermes startup: 412.3 ms <phase> (cpu 201 ms)` lines → [{phase, wall, cpu}]. */
function marks(stderr) {
  const found = [];
  for (const match of stderr.matchAll(/^hermes startup: ([\d.]+) ms (.+) \(cpu (\d+) ms\)$/gm)) {
    const phase = match[2].replace(/\/\S*\//, '').replace(/ \((with|without) code cache\)/, '');
    found.push({ phase, wall: Number(match[1]), cpu: Number(match[3]) });
  }
  return found;
}

const env = { ...process.env, HERMES_HOME: home, NO_COLOR: '1', HERMES_TRACE_STARTUP: '1' };
const floorScript =
  "const u = process.cpuUsage(); console.error('cpu ' + (u.user + u.system) / 1000)";
const load = [loadavg()[0]];
for (let i = 0; i < 3; i += 1) await run([bin, 'chat', '-q', 'hi'], env); // code cache, sessions
const runs = [];
const floors = [];
for (let i = 0; i < RUNS; i += 1) {
  runs.push(marks(await run([bin, 'chat', '-q', 'hi'], env)));
  floors.push(Number((await run(['-e', floorScript], process.env)).split(' ')[1]));
}
load.push(loadavg()[0]);
await server.close();
rmSync(home, { recursive: true, force: true });
rmSync(work, { recursive: true, force: true });

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(
  `${RUNS} warm runs of chat -q hi in a user-like home, load average ${load[0].toFixed(2)} → ${load[1].toFixed(2)}`,
);
console.log('phase (ends at the mark)                          wall ms   cpu ms   cpu in phase');
const phases = runs[0].map((mark) => mark.phase);
let previous = 0;
for (const [index, phase] of phases.entries()) {
  const wall = median(runs.map((r) => r[index]?.wall ?? Number.NaN));
  const cpu = median(runs.map((r) => r[index]?.cpu ?? Number.NaN));
  console.log(
    `${phase.padEnd(48)} ${wall.toFixed(0).padStart(7)}  ${cpu.toFixed(0).padStart(7)}  ${(cpu - previous).toFixed(0).padStart(9)}`,
  );
  previous = cpu;
}
console.log(
  `node -e (floor: cpu at its end)                   ${''.padStart(7)}  ${median(floors).toFixed(0).padStart(7)}`,
);
