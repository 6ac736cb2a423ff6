/**
 * @packageDocumentation
 * The contract every {@link ExecutionEnvironment} must honour, as a vitest suite
 * ({@link describeExecutionEnvironmentContract}) and as plain assertion functions (`check…`)
 * that throw a `ContractViolation` (from `@hermes/protocol/testing`) on a violation.
 *
 * Beyond the basics it checks that `cd` persists into the next command, that the whole process
 * group (not just the shell) is dead after a timeout or abort (even when it ignores SIGTERM or
 * forked many children), bounded output with a spill file, and hostile input and output (a
 * missing cwd, binary, invalid UTF-8, `\r` floods, closed or leaked output pipes). The factory's
 * environment must start in a writable directory: the process checks write heartbeat files there.
 *
 * Only types and schemas are imported from this package's other modules, so the testing build never
 * carries a second copy of the seam's classes.
 */
import { isDeepStrictEqual } from 'node:util';
import { contractViolation, within } from '@hermes/protocol/testing';
import { afterEach, describe, it } from 'vitest';
import {
  checkBinaryOutput,
  checkBoundsOutput,
  checkCarriageReturnFlood,
  checkClosedStdout,
  checkInvalidUtf8,
  checkLeakedPipe,
  checkMissingCwd,
} from './contract-hostile.js';
import {
  checkAbortKillsGroup,
  checkCwdPersists,
  checkEscalatesToKill,
  checkKillsForkHeavyCommand,
  checkTimeoutKillsGroup,
} from './contract-process.js';
import {
  DEFAULT_ABORT_DEADLINE_MS,
  DEFAULT_COMMAND_DEADLINE_MS,
  DEFAULT_TIMEOUT_SLACK_MS,
  describeResult,
  parseResult,
  run,
  uniqueName,
  waitForShellTest,
} from './contract-support.js';
import { EnvironmentDescriptionSchema } from './description.js';
import type { ExecutionEnvironment } from './execution-environment.js';

export * from './contract-hostile.js';
export * from './contract-process.js';
export {
  DEFAULT_ABORT_DEADLINE_MS,
  DEFAULT_COMMAND_DEADLINE_MS,
  DEFAULT_TIMEOUT_SLACK_MS,
} from './contract-support.js';
export * from './file-operations-contract.js';

/** An environment under test plus what to do after the test (after its own `cleanup()`). */
export interface ExecutionEnvironmentFixture {
  readonly environment: ExecutionEnvironment;
  /** Runs after each test, even a failed one, after `environment.cleanup()`. */
  readonly cleanup?: () => void | Promise<void>;
}

/** Makes a fresh environment for one test. */
export type ExecutionEnvironmentFactory = () =>
  | ExecutionEnvironment
  | ExecutionEnvironmentFixture
  | Promise<ExecutionEnvironment | ExecutionEnvironmentFixture>;

/** How long vitest lets one contract test run: above the sum of the deadlines it can meet. */
const CONTRACT_TEST_TIMEOUT_MS = 60_000;

/** Tuning for {@link describeExecutionEnvironmentContract}; raise them for slow remote backends. */
export interface ExecutionEnvironmentContractOptions {
  /** How late past `timeoutMs` a timed-out command may return, in ms. Default 10,000. */
  readonly timeoutSlackMs?: number;
  /** How soon after an abort the command must return, in ms. Default 10,000. */
  readonly abortDeadlineMs?: number;
  /** How long an ordinary short command may take, in ms. Default 10,000. */
  readonly commandDeadlineMs?: number;
}

/** Checks that `echo hello` succeeds with exit code 0 and `hello` in its output. */
export async function checkRunsCommand(
  environment: ExecutionEnvironment,
  deadlineMs = 10_000,
): Promise<void> {
  const result = await run(environment, 'echo hello', {}, deadlineMs);
  if (!result.output.includes('hello') || result.exitCode !== 0) {
    contractViolation(`echo hello gave ${describeResult(result)}`);
  }
  if (result.timedOut) contractViolation('echo hello reported timedOut');
  if (result.interrupted) contractViolation('echo hello reported interrupted');
}

/** Checks that a failing command is a result carrying its exit code, with its output kept. */
export async function checkReportsExitCode(
  environment: ExecutionEnvironment,
  deadlineMs = 10_000,
): Promise<void> {
  const result = await run(environment, 'echo before-exit; exit 3', {}, deadlineMs);
  if (result.exitCode !== 3) contractViolation(`exit 3 gave ${describeResult(result)}`);
  if (!result.output.includes('before-exit')) {
    contractViolation(`exit 3 lost output: ${describeResult(result)}`);
  }
}

/** Checks that standard error is captured in `output`. */
export async function checkCapturesStderr(
  environment: ExecutionEnvironment,
  deadlineMs = 10_000,
): Promise<void> {
  const result = await run(environment, 'echo to-stderr 1>&2', {}, deadlineMs);
  if (!result.output.includes('to-stderr')) {
    contractViolation(`stderr missing: ${describeResult(result)}`);
  }
}

/** Checks that `cwd` is where the command runs and is reported back. */
export async function checkUsesCwd(
  environment: ExecutionEnvironment,
  deadlineMs = 10_000,
): Promise<void> {
  const result = await run(environment, 'pwd', { cwd: '/' }, deadlineMs);
  if (result.output.trim() !== '/') contractViolation(`pwd in / gave ${describeResult(result)}`);
  if (result.cwd !== '/') {
    contractViolation(`pwd in / reported cwd ${JSON.stringify(result.cwd)}`);
  }
}

/** Checks that `stdin` reaches the command's standard input. */
export async function checkDeliversStdin(
  environment: ExecutionEnvironment,
  deadlineMs = 10_000,
): Promise<void> {
  const stdin = 'first line from stdin\nsecond line from stdin\n';
  const result = await run(environment, 'cat', { stdin }, deadlineMs);
  const delivered =
    result.output.includes('first line from stdin') &&
    result.output.includes('second line from stdin');
  if (!delivered || result.exitCode !== 0) {
    contractViolation(`cat with stdin gave ${describeResult(result)}`);
  }
}

/** Checks that `env` variables are visible to the command. */
export async function checkPassesEnv(
  environment: ExecutionEnvironment,
  deadlineMs = 10_000,
): Promise<void> {
  const value = 'contract value 42';
  const result = await run(
    environment,
    'printf "<%s>" "$HERMES_CONTRACT_VALUE"',
    { env: { HERMES_CONTRACT_VALUE: value } },
    deadlineMs,
  );
  if (!result.output.includes(`<${value}>`)) {
    contractViolation(`env var missing: ${describeResult(result)}`);
  }
}

/** Checks that a command past `timeoutMs` is killed, flagged `timedOut`, and returns in time. */
export async function checkTimesOut(
  environment: ExecutionEnvironment,
  timeoutMs = 300,
  slackMs = DEFAULT_TIMEOUT_SLACK_MS,
): Promise<void> {
  const result = await run(environment, 'sleep 30', { timeoutMs }, timeoutMs + slackMs);
  if (!result.timedOut) {
    contractViolation(`sleep 30 past its timeout gave ${describeResult(result)}`);
  }
  if (result.interrupted) contractViolation('a timeout was reported as an interrupt');
  if (result.exitCode === 0) contractViolation('a killed command reported exit code 0');
}

/**
 * Checks that aborting the signal of a running command kills it, flags `interrupted`, and returns
 * well before the command would have ended. The abort comes once the command has started (it
 * creates a marker file in the working directory), however long starting takes.
 */
export async function checkInterrupts(
  environment: ExecutionEnvironment,
  deadlineMs = DEFAULT_ABORT_DEADLINE_MS,
): Promise<void> {
  const controller = new AbortController();
  const marker = uniqueName('hermes-started');
  let ended = false;
  const pending = environment
    .execute(`touch ${marker}; sleep 30`, { signal: controller.signal })
    .finally(() => {
      ended = true;
    });
  const started = `-e ${marker}`;
  await waitForShellTest(
    environment,
    started,
    `the command never started (no ${marker})`,
    () => ended,
  );
  controller.abort();
  const settled = pending.then(
    (value) => value,
    (error: unknown) => contractViolation(`execute rejected after an abort: ${String(error)}`),
  );
  const what = 'execute("sleep 30") after its signal aborted';
  const result = parseResult(await within(settled, deadlineMs, what), what);
  await run(environment, `rm -f ${marker}`, {}, DEFAULT_COMMAND_DEADLINE_MS);
  if (!result.interrupted) contractViolation(`aborted sleep 30 gave ${describeResult(result)}`);
  if (result.timedOut) contractViolation('an interrupt was reported as a timeout');
  if (result.exitCode === 0) contractViolation('a killed command reported exit code 0');
}

/** Checks that an already-aborted signal returns `interrupted` promptly. */
export async function checkAlreadyAborted(
  environment: ExecutionEnvironment,
  deadlineMs = DEFAULT_ABORT_DEADLINE_MS,
): Promise<void> {
  const controller = new AbortController();
  controller.abort();
  const result = await run(environment, 'sleep 30', { signal: controller.signal }, deadlineMs);
  if (!result.interrupted) {
    contractViolation(`already-aborted sleep 30 gave ${describeResult(result)}`);
  }
}

/** Checks that `describe()` names its backend and is plain JSON. */
export function checkDescribes(environment: ExecutionEnvironment): void {
  const description: unknown = environment.describe();
  const parsed = EnvironmentDescriptionSchema.safeParse(description);
  if (!parsed.success) {
    contractViolation(`describe() returned ${JSON.stringify(description)}, with no backend`);
  }
  if (!isDeepStrictEqual(JSON.parse(JSON.stringify(description)), description)) {
    contractViolation('describe() is not plain JSON');
  }
  if (typeof environment.name !== 'string' || environment.name.length === 0) {
    contractViolation('name is empty');
  }
}

/** Checks that `cleanup()` can be called twice. */
export async function checkCleanupIsIdempotent(
  environment: ExecutionEnvironment,
  deadlineMs = 10_000,
): Promise<void> {
  await within(environment.cleanup(), deadlineMs, 'the first cleanup()');
  await within(environment.cleanup(), deadlineMs, 'the second cleanup()');
}

function isEnvironment(
  value: ExecutionEnvironment | ExecutionEnvironmentFixture,
): value is ExecutionEnvironment {
  return typeof (value as Partial<ExecutionEnvironment>).execute === 'function';
}

/**
 * Registers the {@link ExecutionEnvironment} contract as a vitest `describe` block. `factory`
 * makes a fresh environment for every test; the suite calls its `cleanup()` afterwards.
 *
 * @example
 * describeExecutionEnvironmentContract('local', () => new LocalEnvironment({ cwd: tmp }));
 */
export function describeExecutionEnvironmentContract(
  label: string,
  factory: ExecutionEnvironmentFactory,
  options: ExecutionEnvironmentContractOptions = {},
): void {
  const timeoutSlackMs = options.timeoutSlackMs ?? DEFAULT_TIMEOUT_SLACK_MS;
  const abortDeadlineMs = options.abortDeadlineMs ?? DEFAULT_ABORT_DEADLINE_MS;
  const deadlineMs = options.commandDeadlineMs ?? DEFAULT_COMMAND_DEADLINE_MS;

  describe(`ExecutionEnvironment contract: ${label}`, { timeout: CONTRACT_TEST_TIMEOUT_MS }, () => {
    const cleanups: Array<() => void | Promise<void>> = [];

    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });

    async function make(): Promise<ExecutionEnvironment> {
      const made = await factory();
      const environment = isEnvironment(made) ? made : made.environment;
      if (!isEnvironment(made) && made.cleanup) cleanups.push(made.cleanup);
      cleanups.push(() => environment.cleanup());
      return environment;
    }

    it('runs a command: echo hello gives hello and exit code 0', async () => {
      await checkRunsCommand(await make(), deadlineMs);
    });
    it('returns a failing command as a result with its exit code', async () => {
      await checkReportsExitCode(await make(), deadlineMs);
    });
    it('captures standard error in the output', async () => {
      await checkCapturesStderr(await make(), deadlineMs);
    });
    it('runs in the requested cwd and reports it', async () => {
      await checkUsesCwd(await make(), deadlineMs);
    });
    it('delivers stdin', async () => {
      await checkDeliversStdin(await make(), deadlineMs);
    });
    it('passes extra environment variables', async () => {
      await checkPassesEnv(await make(), deadlineMs);
    });
    it('kills a command at its timeout and says so', async () => {
      await checkTimesOut(await make(), 300, timeoutSlackMs);
    });
    it('kills a command promptly when its signal aborts', async () => {
      await checkInterrupts(await make(), abortDeadlineMs);
    });
    it('does not run a command whose signal is already aborted', async () => {
      await checkAlreadyAborted(await make(), abortDeadlineMs);
    });
    it('describes itself with a backend name', async () => {
      checkDescribes(await make());
    });
    it('cleans up idempotently', async () => {
      await checkCleanupIsIdempotent(await make(), deadlineMs);
    });
    it('keeps the working directory a cd moved to for the next command', async () => {
      await checkCwdPersists(await make(), deadlineMs);
    });
    it('kills background children too when the signal aborts', async () => {
      await checkAbortKillsGroup(await make(), abortDeadlineMs);
    });
    it('kills background children too at the timeout', async () => {
      await checkTimeoutKillsGroup(await make(), timeoutSlackMs);
    });
    it('escalates to SIGKILL when the command ignores SIGTERM', async () => {
      await checkEscalatesToKill(await make(), abortDeadlineMs);
    });
    it('kills every child of a fork-heavy command', async () => {
      await checkKillsForkHeavyCommand(await make(), abortDeadlineMs);
    });
    it('reports a missing cwd as a failed result naming it', async () => {
      await checkMissingCwd(await make(), deadlineMs);
    });
    it('turns binary output into a valid string', async () => {
      await checkBinaryOutput(await make(), deadlineMs);
    });
    it('replaces invalid UTF-8 and keeps the valid text', async () => {
      await checkInvalidUtf8(await make(), deadlineMs);
    });
    it('survives a flood of \\r progress updates', async () => {
      await checkCarriageReturnFlood(await make(), deadlineMs);
    });
    it('bounds long output, keeping head and tail and naming the spill file', async () => {
      await checkBoundsOutput(await make(), deadlineMs);
    });
    it('waits for a command that closed its stdout and kept running', async () => {
      await checkClosedStdout(await make(), deadlineMs);
    });
    it('does not hang on a background child that keeps the output pipes open', async () => {
      await checkLeakedPipe(await make(), deadlineMs);
    });
  });
}

/** Every assertion of the contract, by name, for callers that run them outside vitest. */
export const executionEnvironmentChecks = {
  checkRunsCommand,
  checkReportsExitCode,
  checkCapturesStderr,
  checkUsesCwd,
  checkDeliversStdin,
  checkPassesEnv,
  checkTimesOut,
  checkInterrupts,
  checkAlreadyAborted,
  checkDescribes,
  checkCleanupIsIdempotent,
  checkCwdPersists,
  checkAbortKillsGroup,
  checkTimeoutKillsGroup,
  checkEscalatesToKill,
  checkKillsForkHeavyCommand,
  checkMissingCwd,
  checkBinaryOutput,
  checkInvalidUtf8,
  checkCarriageReturnFlood,
  checkBoundsOutput,
  checkClosedStdout,
  checkLeakedPipe,
} as const;
