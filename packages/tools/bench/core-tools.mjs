/**
 * Core-tools benchmarks: the fuzzy matcher, the HTML reader and the JS search walker.
 * Run after `npx tsup`: `node bench/core-tools.mjs`. HERMES_BENCH_ENTRY overrides the module
 * imported (default ../dist/index.js). The issue sets no targets for these; the numbers beside
 * them are our own budgets, printed for comparison and not asserted.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const entry = process.env.HERMES_BENCH_ENTRY ?? new URL('../dist/index.js', import.meta.url).href;
const { fuzzyReplace, htmlToReadable, createSearchFilesTool } = await import(entry);

async function measure(label, budget, iterations, fn) {
  for (let i = 0; i < Math.min(20, iterations); i += 1) await fn();
  const start = performance.now();
  for (let i = 0; i < iterations; i += 1) await fn();
  const perOp = (performance.now() - start) / iterations;
  const shown = perOp < 1 ? `${(perOp * 1000).toFixed(1)} µs` : `${perOp.toFixed(2)} ms`;
  console.log(`${label.padEnd(58)} ${shown.padStart(10)}   (budget ${budget})`);
}

const source = Array.from(
  { length: 2000 },
  (_, i) => `    const value${i} = compute(${i}); // line ${i}`,
).join('\n');
await measure('fuzzyReplace exact, 2,000-line file', '≤ 1 ms', 500, () =>
  fuzzyReplace(source, 'compute(1500);', 'compute(0);'),
);
await measure('fuzzyReplace line-trimmed (re-indented), 2,000 lines', '≤ 5 ms', 200, () =>
  fuzzyReplace(
    source,
    'const value1500 = compute(1500); // line 1500\nconst value1501 = compute(1501); // line 1501',
    'x',
  ),
);
const anchored =
  'const value1000 = compute(1000); // line 1000\nconst value1001 = compute(9999); // line 1001\nconst value1002 = compute(1002); // line 1002';
await measure('fuzzyReplace block-anchor (all 7 strategies), 2,000 lines', '≤ 20 ms', 50, () =>
  fuzzyReplace(source, anchored, 'y'),
);

const html = `<html><head><title>t</title></head><body><main>${Array.from(
  { length: 800 },
  (_, i) =>
    `<h2>Section ${i}</h2><p>Text with <a href="/x/${i}">a link</a> and <b>bold</b>.</p><ul><li>a</li><li>b</li></ul>`,
).join('')}</main></body></html>`;
await measure(
  `htmlToReadable, ${Math.round(html.length / 1024)} KB page → markdown`,
  '≤ 200 ms',
  20,
  () => htmlToReadable(html, 'markdown', 'https://example.test/'),
);

const dir = mkdtempSync(join(tmpdir(), 'hermes-bench-search-'));
for (let d = 0; d < 40; d += 1) {
  mkdirSync(join(dir, `pkg${d}`), { recursive: true });
  for (let f = 0; f < 50; f += 1) {
    writeFileSync(
      join(dir, `pkg${d}`, `file${f}.ts`),
      `${'export const filler = 1;\n'.repeat(40)}const needle${d}_${f} = true;\n`,
    );
  }
}
const env = {
  name: 'local',
  cwd: dir,
  execute: () => Promise.reject(new Error('no commands in bench')),
};
const search = createSearchFilesTool({ backend: 'walker' });
const ctx = {
  sessionId: 'bench',
  platform: 'cli',
  hermesHome: dir,
  environment: env,
  signal: new AbortController().signal,
};
await measure('search_files walker, 2,000 files, full scan (limit 500)', '≤ 500 ms', 5, () =>
  search.handler(
    {
      pattern: 'needle\\d+_4\\d',
      target: 'content',
      path: '.',
      limit: 500,
      offset: 0,
      output_mode: 'content',
      context: 0,
    },
    ctx,
  ),
);
rmSync(dir, { recursive: true, force: true });
