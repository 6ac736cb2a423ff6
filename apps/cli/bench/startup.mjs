// Start-up bench of the built `hermes` binary (build first: `npx tsup`), measured from outside:
// from `spawn()` to the moment a local @hermes/testkit server has the complete first model
// request (headers and body), the median of several WARM runs (the code cache an earlier run of
// the same shape wrote is in place), with `node -e 0` measured in the same run as the floor.
// Shapes run round-robin, so a change in the machine's load hits them all alike.
//
//   node bench/startup.mjs                 BENCH_RUNS=21 for more runs (default 15)
//   BENCH_COMPARE=/other/checkout/apps/cli/dist/bin.js node bench/startup.mjs
//                                          adds that build's `chat -q hi` (its own user home)
//   BENCH_QUICK=1                          only the floors and `chat -q hi` (and the comparison)
//
// Numbers are printed, not asserted: the machine decides them. Compare against the floor.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { script, startScriptedServer } from '@hermes/testkit';
import { bareHome, userHome } from './user-home.mjs';

const pkg = fileURLToPath(new URL('..', import.meta.url));
const bin = join(pkg, 'dist', 'bin.js');
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
if (!existsSync(bin)) throw new Error(`${bin} is missing: build first (cd apps/cli && npx tsup)`);

const now = () => performance.timeOrigin + performance.now();
const server = await startScriptedServer(script().text('ok').times(1_000_000));
// The testkit records a model request once its whole body is read; stamp that moment, and read
// how long the CLI's main thread had been on a CPU by then (Linux: /proc/PID/schedstat starts
// with nanoseconds on a CPU). On a busy shared machine wall time mostly measures the queue for a
// CPU; the main thread's CPU time moves far less, so it is the figure to compare changes by.
const complete = [];
let current;
const recorded = server.requests;
recorded.push = (...items) => {
  for (let i = 0; i < items.length; i += 1) complete.push({ at: now(), sched: schedstat(current) });
  return Array.prototype.push.apply(recorded, items);
};
function schedstat(pid) {
  try {
    const [cpuNs] = readFileSync(`/proc/${pid}/schedstat`, 'latin1').split(' ').map(Number);
    return { cpuMs: cpuNs / 1e6 };
  } catch {
    return undefined;
  }
}

const scratch = mkdtempSync(join(tmpdir(), 'hermes-bench-'));
const work = join(scratch, 'work');
mkdirSync(work);
// `npm link` leaves `hermes` on the PATH as a symlink into a symlinked package folder.
const linkBin = join(scratch, 'bin');
mkdirSync(join(scratch, 'lib', 'node_modules', '@hermes'), { recursive: true });
mkdirSync(linkBin);
symlinkSync(pkg, join(scratch, 'lib', 'node_modules', '@hermes', 'cli'), 'dir');
symlinkSync('../lib/node_modules/@hermes/cli/dist/bin.js', join(linkBin, 'hermes'));

const baseUrl = `${server.url}/v1`;
const homes = { bare: bareHome(baseUrl), user: userHome(baseUrl), cold: userHome(baseUrl) };
const compare = process.env.BENCH_COMPARE;
if (compare) homes.compare = userHome(baseUrl);
const nodeDir = dirname(process.execPath);
const envFor = (home) => ({ ...process.env, HERMES_HOME: home, NO_COLOR: '1' });
const linkedEnv = { ...envFor(homes.user), PATH: `${linkBin}:${nodeDir}:${process.env.PATH}` };
const node = (args) => [process.execPath, args];

const SCHEDSTAT =
  "process.stdout.write(require('fs').readFileSync('/proc/self/schedstat','latin1'))";

/**
 * What each shape runs. `stdio: 'pipe'` (the default) drains the output as a shell pipe would.
 * `self: true`: the process prints its own schedstat as it ends (the floor's CPU time).
 */
const SHAPES = [
  {
    name: 'node -e 0 (floor)',
    cmd: node(['-e', '0']),
    env: process.env,
    stdio: 'ignore',
    quick: true,
  },
  {
    name: 'node -e <print schedstat> (floor)',
    cmd: node(['-e', SCHEDSTAT]),
    self: true,
    quick: true,
  },
  { name: 'hermes --version', cmd: node([bin, '--version']), env: envFor(homes.bare) },
  {
    name: 'chat -q hi, user home, default output',
    cmd: node([bin, 'chat', '-q', 'hi']),
    env: envFor(homes.user),
    request: true,
    quick: true,
  },
  ...(compare
    ? [
        {
          name: 'same, BENCH_COMPARE build',
          cmd: node([compare, 'chat', '-q', 'hi']),
          env: envFor(homes.compare),
          request: true,
          quick: true,
        },
      ]
    : []),
  {
    name: 'same, as `hermes` via an npm-link symlink',
    cmd: ['hermes', ['chat', '-q', 'hi']],
    env: linkedEnv,
    request: true,
  },
  {
    name: 'same, output to a terminal (script -c)',
    cmd: ['script', ['-qec', `${process.execPath} ${bin} chat -q hi`, '/dev/null']],
    env: envFor(homes.user),
    request: true,
    optional: '/usr/bin/script',
    // schedstat would be script(1)'s, not node's.
    noSched: true,
  },
  {
    name: 'chat -q hello --quiet, bare home',
    cmd: node([bin, 'chat', '-q', 'hello', '--quiet']),
    env: envFor(homes.bare),
    stdio: 'ignore',
    request: true,
  },
  {
    name: 'chat -q hi, user home, COLD (no code cache)',
    cmd: node([bin, 'chat', '-q', 'hi']),
    env: envFor(homes.cold),
    request: true,
    cold: homes.cold,
  },
]
  .filter((shape) => !shape.optional || existsSync(shape.optional))
  .filter((shape) => !process.env.BENCH_QUICK || shape.quick);

/**
 * One run of `shape`: `ms` is spawn → complete first request (request shapes) or spawn → exit;
 * `cpu` is the main thread's CPU time by then, when Linux tells.
 */
function runOnce(shape) {
  return new Promise((resolve, reject) => {
    if (shape.cold) rmSync(join(shape.cold, 'cache'), { recursive: true, force: true });
    const before = complete.length;
    const started = now();
    const [file, args] = shape.cmd;
    const child = spawn(file, args, { env: shape.env, cwd: work, stdio: shape.stdio ?? 'pipe' });
    current = child.pid;
    let out = '';
    child.stdout?.setEncoding('latin1').on('data', (chunk) => {
      out += chunk;
    });
    child.stderr?.resume();
    child.on('error', reject);
    child.on('close', (code) => {
      const total = now() - started;
      if (code !== 0) return reject(new Error(`${shape.name}: exit ${code}`));
      if (!shape.request) {
        const cpu = shape.self ? Number(out.split(' ')[0]) / 1e6 : Number.NaN;
        return resolve({ ms: total, cpu, total });
      }
      if (complete.length !== before + 1) {
        return reject(new Error(`${shape.name}: expected one model request`));
      }
      const { at, sched } = complete[before];
      const ms = at - started;
      resolve({
        ms,
        cpu: sched && !shape.noSched ? sched.cpuMs : Number.NaN,
        headers: recorded[before].time - started,
        total,
      });
    });
  });
}

const load = [loadavg()];
// Warm-up: each shape once, so every warm run finds the code cache its shape wrote; three more
// user-home runs leave sessions in state.db and lines in logs/, as after a few days' use.
for (const shape of SHAPES) await runOnce(shape);
const userShape = SHAPES.find((shape) => shape.env?.HERMES_HOME === homes.user && shape.request);
for (let i = 0; i < 3; i += 1) await runOnce(userShape);
const results = SHAPES.map(() => []);
for (let i = 0; i < RUNS; i += 1) {
  for (const [index, shape] of SHAPES.entries()) results[index].push(await runOnce(shape));
}
load.push(loadavg());
await server.close();
for (const home of Object.values(homes)) rmSync(home, { recursive: true, force: true });
rmSync(scratch, { recursive: true, force: true });

const sorted = (xs) => [...xs].sort((a, b) => a - b);
const median = (xs) => sorted(xs)[Math.floor(xs.length / 2)];
const spread = (xs) => {
  const s = sorted(xs);
  const q = (f) => s[Math.round((s.length - 1) * f)].toFixed(0);
  return `[${q(0.25)}–${q(0.75)}]`.padEnd(12);
};
const column = (index, key) => results[index].map((r) => r[key]).filter(Number.isFinite);
const floor = median(column(0, 'ms'));
const floorCpu = median(column(1, 'cpu'));
const cell = (xs, base) =>
  xs.length === 0
    ? '—'.padEnd(32)
    : `${median(xs).toFixed(0).padStart(5)} ms ${spread(xs)} +${(median(xs) - base).toFixed(0)}`.padEnd(
        32,
      );
console.log(
  `node ${process.version}, ${cpus().length} CPUs, load average ${load[0][0].toFixed(2)} → ${load[1][0].toFixed(2)}; ${RUNS} warm runs per shape, round-robin`,
);
console.log(
  'ms: spawn → the server has the complete first request (no request: spawn → exit); median [interquartile] +over the floor',
);
console.log(
  "cpu: the process's main-thread CPU time by then (Linux schedstat), the same way; steadier under load",
);
console.log(`${'shape'.padEnd(44)} ${'ms'.padEnd(32)} cpu`);
for (const [index, shape] of SHAPES.entries()) {
  const ms = cell(column(index, 'ms'), floor);
  const cpu = cell(column(index, 'cpu'), floorCpu);
  const extra = shape.request
    ? ` (headers at ${median(column(index, 'headers')).toFixed(0)} ms, exit at ${median(column(index, 'total')).toFixed(0)} ms)`
    : '';
  console.log(`${shape.name.padEnd(44)} ${ms} ${cpu}${extra}`);
}
