/**
 * The closing `Tests: N passed, N failed, N skipped` line of `tools/test-setup/summary-reporter.ts`,
 * checked for real: Vitest runs fixture test files in a temporary folder, with its own config (so
 * none of this monorepo's projects are picked up), as a subprocess with that reporter.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import SummaryReporter from '../../test-setup/summary-reporter.ts';
import { type FixtureFiles, makeFixture } from './fixture.js';

const REPORTER = fileURLToPath(new URL('../../test-setup/summary-reporter.ts', import.meta.url));
const VITEST = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));
/** A backstop only: each run takes a few seconds, more on a loaded machine. */
const RUN_TIMEOUT_MS = 120_000;

/** Globals, so the fixtures need no `vitest` import (the temporary folder has no node_modules). */
const CONFIG = "export default { test: { globals: true, include: ['*.test.js'] } };\n";

const FIXTURES = {
  beforeAll: `describe('setup fails', () => {
  beforeAll(() => { throw new Error('beforeAll boom'); });
  it('a', () => {});
  describe('nested', () => { it('b', () => {}); });
  it.skip('c is skipped on purpose', () => {});
});
`,
  afterAll: `describe('teardown fails', () => {
  afterAll(() => { throw new Error('afterAll boom'); });
  it('runs and passes', () => {});
});
`,
  importError: `throw new Error('import boom');\n`,
  unhandled: `it('leaks a rejection', async () => {
  Promise.reject(new Error('unhandled boom'));
  await new Promise((resolve) => setTimeout(resolve, 50));
});
`,
  failing: `it('fails', () => { expect(1).toBe(2); });\n`,
  passing: `it('passes', () => {});\n`,
  skipped: `it.skip('skipped', () => {});
it('skips itself', (ctx) => { ctx.skip('not on this platform'); });
it.todo('later');
`,
} as const;

type FixtureName = keyof typeof FIXTURES;

interface RunResult {
  readonly code: number | null;
  /** Every non-empty line of stdout, without colour codes. */
  readonly lines: readonly string[];
  readonly output: string;
}

/** Child environment without the parent run's Vitest variables, which would confuse the child. */
function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', CI: '1' };
  for (const key of Object.keys(env))
    if (key.startsWith('VITEST') || key === 'TEST') delete env[key];
  return env;
}

/** Runs Vitest on the named fixtures with the default reporter and the summary reporter. */
function runFixtures(names: readonly FixtureName[], extraArgs: readonly string[] = []) {
  const files: FixtureFiles = { 'vitest.config.mjs': CONFIG };
  for (const name of names) files[`${name}.test.js`] = FIXTURES[name];
  const root = makeFixture(files);
  const args = [VITEST, 'run', '--root', root, '--config', `${root}/vitest.config.mjs`];
  args.push('--reporter=default', `--reporter=${REPORTER}`, ...extraArgs);
  return new Promise<RunResult>((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, env: childEnv() });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const plain = stripVTControlCharacters(stdout);
      const lines = plain.split('\n').map((line) => line.trimEnd());
      resolve({ code, lines: lines.filter((l) => l !== ''), output: `${plain}\n${stderr}` });
    });
  });
}

/** The last line of stdout: the closing summary. */
function closing(result: RunResult): string {
  return result.lines.at(-1) ?? '';
}

describe('summary reporter closing line', () => {
  it(
    'counts failed tests, hooks, unloadable files and unhandled errors, never as skipped',
    async () => {
      const result = await runFixtures(Object.keys(FIXTURES) as FixtureName[]);
      expect(result.code, result.output).not.toBe(0);
      // Passed: afterAll's test, the unhandled-rejection test, `passes`. Failed: `fails`, the two
      // tests a beforeAll kept from running, the afterAll hook, the file that threw on import,
      // the unhandled rejection. Skipped: it.skip (twice), ctx.skip, it.todo.
      expect(closing(result)).toBe('Tests: 3 passed, 6 failed, 4 skipped');
      expect(result.lines.at(-2)).toBe(
        'Failed: 1 test, 2 tests not run (a beforeAll failed), 1 afterAll hook, 1 file that failed to load, 1 unhandled error',
      );
    },
    RUN_TIMEOUT_MS,
  );

  it.each([
    ['beforeAll', 'Tests: 1 passed, 2 failed, 1 skipped'],
    ['afterAll', 'Tests: 2 passed, 1 failed, 0 skipped'],
    ['importError', 'Tests: 1 passed, 1 failed, 0 skipped'],
    ['unhandled', 'Tests: 2 passed, 1 failed, 0 skipped'],
  ] as const)(
    'a run failing only through %s (beside a passing file) says so',
    async (name, line) => {
      const result = await runFixtures([name, 'passing']);
      expect(result.code, result.output).not.toBe(0);
      expect(closing(result)).toBe(line);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'counts a run Vitest failed for another reason (no test files) as one failure',
    async () => {
      const result = await runFixtures([]);
      expect(result.code, result.output).not.toBe(0);
      expect(closing(result)).toBe('Tests: 0 passed, 1 failed, 0 skipped');
      expect(result.lines.at(-2)).toBe(
        'Failed: the run itself (Vitest reported it failed; see above)',
      );
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'says 0 failed, with no breakdown, for a passing run',
    async () => {
      const result = await runFixtures(['passing', 'skipped']);
      expect(result.code, result.output).toBe(0);
      expect(closing(result)).toBe('Tests: 1 passed, 0 failed, 3 skipped');
      expect(result.lines.at(-2)).not.toMatch(/^Failed:/u);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'does not count unhandled errors Vitest was told to ignore',
    async () => {
      const result = await runFixtures(['unhandled'], ['--dangerouslyIgnoreUnhandledErrors']);
      expect(result.code, result.output).toBe(0);
      expect(closing(result)).toBe('Tests: 1 passed, 0 failed, 0 skipped');
    },
    RUN_TIMEOUT_MS,
  );

  it('counts an interrupted run with nothing else to show as one failure', () => {
    // Vitest ends a run early (bail, a cancelled run) with reason 'interrupted'; the reporter is
    // called directly here because an interrupted run without a failure cannot be scripted.
    const lines: string[] = [];
    const reporter = new SummaryReporter({ write: (text) => lines.push(text) });
    reporter.onTestRunEnd([], [], 'interrupted');
    expect(lines.join('').trim().split('\n')).toEqual([
      'Failed: the run itself (interrupted before it finished)',
      'Tests: 0 passed, 1 failed, 0 skipped (interrupted)',
    ]);
  });
});
