// Benchmarks for @hermes/approval against the built package (`npx tsup` first).
// Targets (issue 5), printed beside each number, not asserted:
//   >= 100,000 typical commands per second on one core
//   a 128,000-character adversarial command decided in <= 20 ms
// On a shared, loaded machine the best of several runs is the honest figure; both are shown.
import { checkCommand } from '../dist/index.js';
import { adversarialCommands } from './inputs.mjs';

const TYPICAL = [
  'ls -la',
  'git status',
  'npm install',
  'rm -rf build',
  'cat README.md | grep -n foo',
  'python3 script.py --flag x',
  'git commit -m "fix: handle empty input"',
  'cd packages/app && npx vitest run',
  "bash -lc 'make test'",
  'curl -s https://api.example.com/x | jq .',
  'find . -name "*.ts" | xargs grep -l TODO',
  'docker compose up -d',
];
const ctx = { saveBlockedScripts: false };

function typicalRate(ms) {
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < ms) {
    for (const command of TYPICAL) checkCommand(command, ctx);
    n += TYPICAL.length;
  }
  return (n / (performance.now() - start)) * 1000;
}

function timeOne(command, runs) {
  const times = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    checkCommand(command, ctx);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { best: times[0], median: times[Math.floor(times.length / 2)] };
}

typicalRate(500); // warm-up
const rates = [typicalRate(1000), typicalRate(1000), typicalRate(1000)];
console.log(
  `typical commands/s: best ${Math.round(Math.max(...rates)).toLocaleString('en')}, ` +
    `median ${Math.round(rates.sort((a, b) => a - b)[1]).toLocaleString('en')}  (target >= 100,000)`,
);
let worst = 0;
for (const [name, command] of Object.entries(adversarialCommands(128_000))) {
  timeOne(command, 3);
  const { best, median } = timeOne(command, 9);
  worst = Math.max(worst, best);
  const verdict = checkCommand(command, ctx);
  console.log(
    `${name.padEnd(28)} ${String(command.length).padStart(6)} chars  best ${best.toFixed(2)} ms  ` +
      `median ${median.toFixed(2)} ms  -> ${verdict.decision}/${verdict.stage}  (target <= 20 ms)`,
  );
}
console.log(`worst adversarial (best of runs): ${worst.toFixed(2)} ms  (target <= 20 ms)`);
