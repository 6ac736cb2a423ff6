// Benchmarks for @hermes/environments. Run after `npx tsup`: node bench/run.mjs
// Prints measured numbers beside the targets; nothing is asserted.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BoundedOutputCollector, LocalEnvironment } from '../dist/index.js';

const home = mkdtempSync(join(tmpdir(), 'hermes-bench-'));
process.env.HERMES_HOME = home;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function roundTrip() {
  const environment = new LocalEnvironment({ cwd: home });
  await environment.execute('true'); // captures the login environment once
  const times = [];
  for (let i = 0; i < 300; i++) {
    const start = performance.now();
    await environment.execute('true');
    times.push(performance.now() - start);
  }
  await environment.cleanup();
  const p90 = [...times].sort((a, b) => a - b)[Math.floor(times.length * 0.9)];
  console.log(
    `local \`true\` round-trip: median ${median(times).toFixed(2)} ms, p90 ${p90.toFixed(2)} ms (target: median <= 5 ms)`,
  );
}

/** Bare `spawn('/bin/sh', ['-c', 'true'])` on this machine now: the floor any backend pays. */
async function spawnBaseline() {
  const { spawn } = await import('node:child_process');
  const times = [];
  for (let i = 0; i < 300; i++) {
    const start = performance.now();
    await new Promise((resolve) =>
      spawn('/bin/sh', ['-c', 'true'], { stdio: 'pipe' }).once('close', resolve),
    );
    times.push(performance.now() - start);
  }
  console.log(
    `baseline bare sh -c true spawn: median ${median(times).toFixed(2)} ms (context for the above)`,
  );
}

async function killLatency() {
  const environment = new LocalEnvironment({ cwd: home });
  const times = [];
  for (let i = 0; i < 10; i++) {
    const controller = new AbortController();
    const pending = environment.execute("trap '' TERM; sleep 600 & sleep 600 & wait", {
      signal: controller.signal,
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const start = performance.now();
    controller.abort();
    await pending;
    times.push(performance.now() - start);
  }
  await environment.cleanup();
  console.log(
    `abort of a SIGTERM-ignoring group to result: median ${median(times).toFixed(1)} ms (target: group dead within 100 ms)`,
  );
}

function collectorMemory() {
  global.gc?.();
  const before = process.memoryUsage().rss;
  const collector = new BoundedOutputCollector({
    maxChars: 50_000,
    spillPath: join(home, 'spill.log'),
  });
  const chunk = `${'x'.repeat(1023)}\n`.repeat(64); // 64 KiB
  let peak = before;
  const start = performance.now();
  for (let sent = 0; sent < 100 * 1024 * 1024; sent += chunk.length) {
    collector.append(chunk);
    if ((sent / chunk.length) % 64 === 0) peak = Math.max(peak, process.memoryUsage().rss);
  }
  const rendered = collector.render({ suffix: '\n[exit code 0]' });
  collector.closeSpill();
  peak = Math.max(peak, process.memoryUsage().rss);
  const ms = performance.now() - start;
  console.log(
    `100 MB through the collector: peak RSS growth ${((peak - before) / 1024 / 1024).toFixed(1)} MB in ${ms.toFixed(0)} ms, rendered ${rendered.length} chars (target: <= 20 MB growth)`,
  );
}

await roundTrip();
await spawnBaseline();
await killLatency();
collectorMemory();
rmSync(home, { recursive: true, force: true });
