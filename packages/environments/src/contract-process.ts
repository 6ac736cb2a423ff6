/**
 * Contract checks about the shell's state and its processes: `cd` persists, and a timeout or an
 * abort leaves no process of the command's group running, even ones that ignore SIGTERM or fork
 * many children. Proof is backend-neutral: the children write a heartbeat file in the working
 * directory, and the heartbeat must stop.
 */
import { contractViolation, within } from '@hermes/protocol/testing';
import { describeResult, parseResult, run, sleep, uniqueName } from './contract-support.js';
import type { ExecuteOptions } from './execute.js';
import type { ExecutionEnvironment } from './execution-environment.js';

/** Checks that a `cd` in one command is where the next command (naming no cwd) starts. */
export async function checkCwdPersists(
  environment: ExecutionEnvironment,
  deadlineMs = 10_000,
): Promise<void> {
  const dir = uniqueName('hermes-cd');
  const first = await run(environment, `mkdir -p ${dir} && cd ${dir}`, {}, deadlineMs);
  if (first.exitCode !== 0 || !first.cwd.endsWith(`/${dir}`)) {
    contractViolation(`cd into a new directory gave ${describeResult(first)}`);
  }
  const second = await run(environment, 'pwd', {}, deadlineMs);
  if (second.output.trim() !== first.cwd || second.cwd !== first.cwd) {
    contractViolation(`the next command did not start where cd left it: ${describeResult(second)}`);
  }
  await run(environment, `cd .. && rmdir ${dir}`, {}, deadlineMs);
}

/** How a heartbeat check stops its command. */
type Stopper = 'abort' | 'timeout';

/** A loop that appends to `file` every 50 ms, forever. */
function beatLoop(file: string): string {
  return `(while :; do echo beat >> ${file}; sleep 0.05; done)`;
}

/**
 * Runs `command` (which must start heartbeat writers into `file`), stops it by `stopper` after
 * the heartbeat appears, requires `execute` to settle within `deadlineMs`, then proves the heartbeat
 * stopped: the file stops growing.
 */
async function checkHeartbeatStops(
  environment: ExecutionEnvironment,
  command: string,
  file: string,
  stopper: Stopper,
  deadlineMs: number,
): Promise<void> {
  const controller = new AbortController();
  const timeoutMs = 2_500;
  const options: ExecuteOptions =
    stopper === 'abort' ? { signal: controller.signal } : { timeoutMs };
  const pending = environment.execute(command, options);
  await waitForHeartbeat(environment, file);
  if (stopper === 'abort') controller.abort();
  const what = `execute(${JSON.stringify(command.slice(0, 80))}) after its ${stopper}`;
  const grace = stopper === 'timeout' ? timeoutMs + deadlineMs : deadlineMs;
  const result = parseResult(await within(pending, grace, what), what);
  const flag = stopper === 'abort' ? result.interrupted : result.timedOut;
  if (!flag) contractViolation(`${what} gave ${describeResult(result)}`);
  const size = `echo "size=$(wc -c < ${file})"`;
  const before = sizeOf((await run(environment, size, {}, 20_000)).output);
  await sleep(400);
  const after = sizeOf((await run(environment, `${size}; rm -f ${file}`, {}, 20_000)).output);
  if (after !== before) {
    contractViolation(
      `a child of the ${stopper === 'abort' ? 'aborted' : 'timed-out'} command is still running: its heartbeat file grew from ${before} to ${after} bytes`,
    );
  }
}

/** The number in a `size=N` line; noise a login profile prints around it is ignored. */
function sizeOf(output: string): number {
  const match = /size=\s*(\d+)/.exec(output);
  if (!match)
    contractViolation(`cannot read the heartbeat file's size from ${JSON.stringify(output)}`);
  return Number(match[1]);
}

/** Waits (up to 15 s, for slow remote hosts) until the heartbeat file has content. */
async function waitForHeartbeat(environment: ExecutionEnvironment, file: string): Promise<void> {
  const end = Date.now() + 15_000;
  while (Date.now() < end) {
    const probe = await run(environment, `[ -s ${file} ] && echo beating`, {}, 20_000);
    if (probe.output.includes('beating')) return;
    await sleep(50);
  }
  contractViolation(`the command's children never wrote their heartbeat file ${file}`);
}

/** Checks that an abort kills the command's background children too, not just the shell. */
export async function checkAbortKillsGroup(
  environment: ExecutionEnvironment,
  deadlineMs = 1_000,
): Promise<void> {
  const file = uniqueName('hermes-beat');
  await checkHeartbeatStops(environment, `${beatLoop(file)} & sleep 30`, file, 'abort', deadlineMs);
}

/** Checks that a timeout kills the command's background children too. */
export async function checkTimeoutKillsGroup(
  environment: ExecutionEnvironment,
  slackMs = 2_000,
): Promise<void> {
  const file = uniqueName('hermes-beat');
  await checkHeartbeatStops(environment, `${beatLoop(file)} & sleep 30`, file, 'timeout', slackMs);
}

/** Checks that a command ignoring SIGTERM is still killed (SIGTERM escalates to SIGKILL). */
export async function checkEscalatesToKill(
  environment: ExecutionEnvironment,
  deadlineMs = 1_000,
): Promise<void> {
  const file = uniqueName('hermes-beat');
  const command = `trap '' TERM INT HUP; ${beatLoop(file)} & sleep 30`;
  await checkHeartbeatStops(environment, command, file, 'abort', deadlineMs);
}

/** Checks that a command that forked many children has all of them killed. */
export async function checkKillsForkHeavyCommand(
  environment: ExecutionEnvironment,
  deadlineMs = 1_000,
): Promise<void> {
  const file = uniqueName('hermes-beat');
  const command = `i=0; while [ $i -lt 30 ]; do ${beatLoop(file)} & i=$((i+1)); done; wait`;
  await checkHeartbeatStops(environment, command, file, 'abort', deadlineMs);
}
