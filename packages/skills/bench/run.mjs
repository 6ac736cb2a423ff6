/**
 * Benchmarks of the skills index (`npm run bench` in packages/skills, after `npx tsup`).
 * Prints numbers with the issue 9 target beside them; nothing is asserted. The skills live in a
 * fresh temporary folder that is removed afterwards.
 *
 * (a) Cold: a new library walks 500 skills (25 categories × 20), parses every SKILL.md and
 *     renders the index.
 * (a') A new library (as in a new process) with the parse snapshot the last one wrote to
 *     HERMES_HOME/cache: one stat per file, no YAML.
 * (b) Cached: the same library renders the index again (mtime check of every folder and file).
 * (c) Cached with a different filter (a new tool set): re-filter and re-render, no parsing.
 * (d) After one SKILL.md changed: one full re-walk.
 *
 * The module under test is `../dist/index.js`; set SKILLS_BENCH_MODULE to use another.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

const entry = process.env.SKILLS_BENCH_MODULE
  ? resolve(process.env.SKILLS_BENCH_MODULE)
  : fileURLToPath(new URL('../dist/index.js', import.meta.url));
const { SkillsLibrary } = await import(pathToFileURL(entry).href);
if (typeof SkillsLibrary !== 'function') {
  console.error(`${entry} does not export SkillsLibrary: run \`npx tsup\` in packages/skills.`);
  process.exit(1);
}

const SKILLS = Number(process.env.BENCH_SKILLS ?? 500);
const CATEGORIES = 25;
const home = mkdtempSync(join(tmpdir(), 'hermes-skills-bench-'));
const root = join(home, 'skills');

function skillFile(name, category, i) {
  const requires = i % 7 === 0 ? '\n    requires_toolsets: [web]' : '';
  const fallback = i % 11 === 0 ? '\n    fallback_for_toolsets: [browser]' : '';
  const platforms = i % 13 === 0 ? '\nplatforms: [macos]' : '';
  return `---\nname: ${name}\ndescription: Skill number ${i} for ${category}; use it when the task involves step ${i} of a typical workflow in this area.\nversion: 1.0.${i}\nauthor: bench\nlicense: MIT${platforms}\nmetadata:\n  hermes:\n    tags: [bench, ${category}]\n    category: ${category}${requires}${fallback}\nrelated_skills: [skill-${(i + 1) % SKILLS}]\n---\n\n# Skill ${i}\n\n${'1. A step of the procedure with some detail.\n'.repeat(40)}`;
}

const files = [];
for (let i = 0; i < SKILLS; i++) {
  const category = `category-${i % CATEGORIES}`;
  const dir = join(root, category, `skill-${i}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'SKILL.md'), skillFile(`skill-${i}`, category, i));
  files.push(join(dir, 'SKILL.md'));
}

const filter = {
  platform: 'cli',
  os: 'linux',
  availableToolsets: ['terminal', 'file', 'web'],
  availableTools: ['terminal', 'read_file'],
};
const ms = (v) => `${v.toFixed(2)} ms`;
const pct = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
function time(fn) {
  const start = performance.now();
  const value = fn();
  return [performance.now() - start, value];
}
function series(n, fn) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(time(fn)[0]);
  return out.sort((a, b) => a - b);
}

// (a) no snapshot: every SKILL.md is read and parsed.
const colds = [];
let lines = 0;
for (let i = 0; i < 5; i++) {
  const [t, index] = time(() =>
    new SkillsLibrary({ hermesHome: home, snapshotFile: false }).buildIndex(filter),
  );
  colds.push(t);
  lines = index.split('\n').filter((l) => l.startsWith('- ')).length;
}
const firstCold = colds[0];
colds.sort((a, b) => a - b);
// (a') a new library (as in a new process) finding the snapshot the previous one wrote.
new SkillsLibrary({ hermesHome: home }).buildIndex(filter);
const fromSnapshot = series(5, () => new SkillsLibrary({ hermesHome: home }).buildIndex(filter));

const library = new SkillsLibrary({ hermesHome: home, snapshotFile: false });
library.buildIndex(filter);
const cached = series(200, () => library.buildIndex(filter));
let toggle = 0;
const refiltered = series(50, () =>
  library.buildIndex({ ...filter, availableTools: ['terminal', `extra-${toggle++}`] }),
);
const changed = series(10, () => {
  const when = new Date(Date.now() + 10_000 + toggle++ * 1000);
  utimesSync(files[0], when, when);
  return library.buildIndex(filter);
});

console.log(
  `skills index over ${SKILLS} skills (${lines} offered after filtering)  target: ≤ 50 ms cached`,
);
console.log(
  `  (a) cold walk + parse + render   first ${ms(firstCold)} (includes module warm-up), median of 5 ${ms(pct(colds, 50))}`,
);
console.log(
  `  (a') new library, parse snapshot  median ${ms(pct(fromSnapshot, 50))}  max ${ms(fromSnapshot[fromSnapshot.length - 1])}`,
);
console.log(
  `  (b) cached (mtime check)         p50 ${ms(pct(cached, 50))}  p95 ${ms(pct(cached, 95))}  max ${ms(cached[cached.length - 1])}`,
);
console.log(
  `  (c) cached, new tool filter      p50 ${ms(pct(refiltered, 50))}  p95 ${ms(pct(refiltered, 95))}`,
);
console.log(
  `  (d) after one SKILL.md changed   p50 ${ms(pct(changed, 50))}  p95 ${ms(pct(changed, 95))}`,
);
rmSync(home, { recursive: true, force: true });
