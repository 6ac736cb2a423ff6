/** Helpers the contract checks share. Imports only types and schemas from the package. */
import { contractViolation, isContractViolation, within } from '@hermes/protocol/testing';
import { type ExecuteOptions, type ExecuteResult, ExecuteResultSchema } from './execute.js';
import type { ExecutionEnvironment } from './execution-environment.js';

/** Runs `command`, failing unless it settles within `ms` with a well-formed result. */
export async function run(
  environment: ExecutionEnvironment,
  command: string,
  options: ExecuteOptions,
  ms: number,
): Promise<ExecuteResult> {
  const what = `execute(${JSON.stringify(command.slice(0, 120))})`;
  let result: unknown;
  try {
    result = await within(environment.execute(command, options), ms, what);
  } catch (error) {
    if (isContractViolation(error)) throw error;
    contractViolation(`${what} rejected instead of returning a result: ${String(error)}`);
  }
  return parseResult(result, what);
}

/** Parses `value` as an {@link ExecuteResult}, failing with every malformed field named. */
export function parseResult(value: unknown, what: string): ExecuteResult {
  const parsed = ExecuteResultSchema.safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (i) => `${i.path.join('.') || '(root)'}: ${i.message}`,
    );
    contractViolation(`${what} returned a malformed result (${problems.join('; ')})`);
  }
  return parsed.data;
}

/** A short, readable account of a result for violation messages. */
export function describeResult(result: ExecuteResult): string {
  const { output, ...rest } = result;
  return `${JSON.stringify(rest)} with output ${JSON.stringify(output.slice(0, 200))}`;
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Default deadlines of the checks. They are backstops, not speed targets (the package's bench
 * measures how fast a kill is): each one is far shorter than the `sleep 30` it stops, so a command
 * that was not killed still fails, yet a heavily loaded host does not.
 */
export const DEFAULT_ABORT_DEADLINE_MS = 10_000;
/** Default of {@link ExecutionEnvironmentContractOptions.timeoutSlackMs}. */
export const DEFAULT_TIMEOUT_SLACK_MS = 10_000;
/** Default of {@link ExecutionEnvironmentContractOptions.commandDeadlineMs}. */
export const DEFAULT_COMMAND_DEADLINE_MS = 10_000;
/** How long a check waits for a command's own marker file: generous, a backstop for slow hosts. */
export const MARKER_WAIT_MS = 15_000;

/**
 * Waits until `test` (a shell test such as `-s file`) holds in the environment, probing with short
 * commands, so a check acts on what the command under test has done rather than on elapsed time.
 * Resolves `true` once it holds, or `false` when `gaveUp()` turns true first (say, the command
 * under test has ended); fails after {@link MARKER_WAIT_MS}, a backstop for slow hosts.
 */
export async function waitForShellTest(
  environment: ExecutionEnvironment,
  test: string,
  what: string,
  gaveUp: () => boolean = () => false,
): Promise<boolean> {
  const end = Date.now() + MARKER_WAIT_MS;
  while (Date.now() < end) {
    const probe = await run(environment, `[ ${test} ] && echo __hermes_yes__`, {}, 20_000);
    if (probe.output.includes('__hermes_yes__')) return true;
    if (gaveUp()) return false;
    await sleep(50);
  }
  contractViolation(`${what} (waited ${MARKER_WAIT_MS} ms)`);
}

/** A name unlikely to clash with anything in the environment's working directory. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}
