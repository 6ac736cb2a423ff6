/**
 * Prints one closing line, `Tests: N passed, N failed, N skipped`, after Vitest's own summary,
 * so CI (and a person scrolling a log) reads the outcome from the last line.
 *
 * "failed" counts every failure Vitest counts, not only failed tests, because Vitest files some
 * failures as skipped tests or outside any test:
 * - a test that failed;
 * - a test a failed `beforeAll` (of its suite or file) kept from running — Vitest marks it
 *   skipped; here it is failed, and the hook is counted through those tests;
 * - a failed `afterAll` (or other suite/file error) after its tests ran, once per error;
 * - a test file that failed to load or collect (an import that throws, a `describe` that throws);
 * - an unhandled error or rejection (unless `dangerouslyIgnoreUnhandledErrors` is on);
 * - and, as a last guard, one for a run Vitest reports failed or interrupted when none of the
 *   above was seen.
 * When anything besides failed tests is counted, the line before the closing one says what
 * (`Failed: 1 test, 2 tests not run (a beforeAll failed), 1 afterAll hook, …`). "skipped" is
 * only what was skipped on purpose (`skip`, `todo`, `ctx.skip()`, filtered out).
 */
import type {
  Reporter,
  SerializedError,
  TestCase,
  TestModule,
  TestRunEndReason,
  TestSuite,
  Vitest,
} from 'vitest/node';

/** What the closing lines count. */
interface Tally {
  passed: number;
  skipped: number;
  failedTests: number;
  notRun: number;
  hooks: number;
  unloaded: number;
  unhandled: number;
  unexplained: number;
  /** Why the run counts as failed when nothing else explains it. */
  unexplainedWhy: string;
}

/** True when a test below `node` ran to a result: its hooks before it did not fail. */
function anyTestRan(node: TestModule | TestSuite): boolean {
  for (const test of node.children.allTests()) {
    const state = test.result().state;
    if (state === 'passed' || state === 'failed') return true;
  }
  return false;
}

/** A test that was meant to run (not `skip` / `todo`, not filtered out by `only`). */
function meantToRun(test: TestCase): boolean {
  return test.options.mode === 'run' || test.options.mode === 'only';
}

function countTest(test: TestCase, blocked: boolean, tally: Tally): void {
  const state = test.result().state;
  if (state === 'passed') tally.passed += 1;
  else if (state === 'failed') tally.failedTests += 1;
  else if (blocked && meantToRun(test)) tally.notRun += 1;
  else tally.skipped += 1;
}

/**
 * Counts a file or suite and everything in it. `blockedAbove`: an enclosing suite's `beforeAll`
 * failed, so nothing here ran. A suite with errors and children of which none ran failed before
 * its tests (a `beforeAll`): its tests count, not its errors. One whose tests ran failed after
 * them (an `afterAll`): each error counts. One with no children failed to load or collect.
 */
function countNode(node: TestModule | TestSuite, blockedAbove: boolean, tally: Tally): void {
  const errors = node.errors().length;
  const ran = anyTestRan(node);
  const blocked = blockedAbove || (errors > 0 && !ran);
  if (errors > 0) {
    if (node.children.size === 0) tally.unloaded += 1;
    else if (ran || ![...node.children.allTests()].some(meantToRun)) tally.hooks += errors;
  }
  for (const child of node.children) {
    if (child.type === 'suite') countNode(child, blocked, tally);
    else countTest(child, blocked, tally);
  }
}

function failedTotal(tally: Tally): number {
  return (
    tally.failedTests +
    tally.notRun +
    tally.hooks +
    tally.unloaded +
    tally.unhandled +
    tally.unexplained
  );
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** What "failed" is made of, when it is more than failed tests; `undefined` otherwise. */
function breakdown(tally: Tally): string | undefined {
  if (failedTotal(tally) === tally.failedTests) return undefined;
  const parts = [
    tally.failedTests > 0 ? plural(tally.failedTests, 'test', 'tests') : '',
    tally.notRun > 0 ? `${plural(tally.notRun, 'test', 'tests')} not run (a beforeAll failed)` : '',
    tally.hooks > 0 ? plural(tally.hooks, 'afterAll hook', 'afterAll hooks') : '',
    tally.unloaded > 0
      ? plural(tally.unloaded, 'file that failed to load', 'files that failed to load')
      : '',
    tally.unhandled > 0 ? plural(tally.unhandled, 'unhandled error', 'unhandled errors') : '',
    tally.unexplained > 0 ? `the run itself (${tally.unexplainedWhy})` : '',
  ];
  return `Failed: ${parts.filter((part) => part !== '').join(', ')}`;
}

/** Options of {@link SummaryReporter}. */
export interface SummaryReporterOptions {
  /** Where the lines go. Default: standard output. */
  readonly write?: (text: string) => void;
}

/** The closing-line reporter; see the file comment for what each number counts. */
export default class SummaryReporter implements Reporter {
  private ignoreUnhandled = false;
  private readonly write: (text: string) => void;

  constructor(options: SummaryReporterOptions = {}) {
    this.write = options.write ?? ((text) => process.stdout.write(text));
  }

  onInit(vitest: Vitest): void {
    this.ignoreUnhandled = vitest.config.dangerouslyIgnoreUnhandledErrors === true;
  }

  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError> = [],
    reason: TestRunEndReason = 'passed',
  ): void {
    const tally: Tally = {
      passed: 0,
      skipped: 0,
      failedTests: 0,
      notRun: 0,
      hooks: 0,
      unloaded: 0,
      unhandled: this.ignoreUnhandled ? 0 : unhandledErrors.length,
      unexplained: 0,
      unexplainedWhy:
        reason === 'interrupted'
          ? 'interrupted before it finished'
          : 'Vitest reported it failed; see above',
    };
    for (const mod of testModules) countNode(mod, false, tally);
    // A run that did not pass, with nothing above to show for it, still failed.
    if (reason !== 'passed' && failedTotal(tally) === 0) tally.unexplained = 1;
    const detail = breakdown(tally);
    const interrupted = reason === 'interrupted' ? ' (interrupted)' : '';
    this.write(
      `\n${detail === undefined ? '' : `${detail}\n`}Tests: ${tally.passed} passed, ${failedTotal(tally)} failed, ${tally.skipped} skipped${interrupted}\n`,
    );
  }
}
