/**
 * Contract checks about the shell's state and its processes: `cd` persists, and a timeout or an
 * abort leaves no process of the command's group running, even ones that ignore SIGTERM or fork
 * many children. Proof is backend-neutral: the children write a heartbeat file in the working
 * directory, and the heartbeat must stop.
 */
import { contractViolation, within } from '@hermes/protocol/testing';
import {
  DEFAULT_ABORT_DEADLINE_MS,
  DEFAULT_TIMEOUT_SLACK_MS,
  describeResult,
  parseResult,
  run,
  uniqueName,
  waitForShellTest,
} from './contract-support.js';
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

/** How many 50 ms cycles the witness loop runs while watching a heartbeat file for growth. */
const WITNESS_BEATS = 10;

/**
 * One command that reads `file`'s size, runs a witness loop of the heartbeat's own cadence
 * ({@link WITNESS_BEATS} cycles, stopping early once the file grew), and reads the size again.
 * The window is measured in the environment's own scheduling, not in this process's clock: a
 * surviving heartbeat writer gets the same chances to run as the witness, however loaded the host.
 */
function growthProbe(file: string): string {
  return [
    `b=$(wc -c < ${file}); i=0`,
    `while [ $i -lt ${WITNESS_BEATS} ] && [ "$(wc -c < ${file})" = "$b" ]; do sleep 0.05; i=$((i+1)); done`,
    `echo "size=$b"; echo "size=$(wc -c < ${file})"; rm -f ${file}`,
  ].join('; ');
}

/**
 * Timeouts a timeout check tries in turn. A loaded host may start the command's children only
 * after a short timeout already fired; the check then proves nothing and tries a longer one.
 */
const TIMEOUT_ATTEMPTS_MS = [2_500, 6_000] as const;

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
  const attempts = stopper === 'timeout' ? TIMEOUT_ATTEMPTS_MS : [undefined];
  for (const [attempt, timeoutMs] of attempts.entries()) {
    const controller = new AbortController();
    const options: ExecuteOptions =
      timeoutMs === undefined ? { signal: controller.signal } : { timeoutMs };
    let settled = false;
    const pending = environment.execute(command, options).finally(() => {
      settled = true;
    });
    const beating = await waitForHeartbeat(environment, file, () => settled);
    if (!beating && attempt + 1 < attempts.length) {
      await pending.catch(() => undefined);
      await run(environment, `rm -f ${file}`, {}, 20_000);
      continue;
    }
    if (stopper === 'abort') controller.abort();
    const what = `execute(${JSON.stringify(command.slice(0, 80))}) after its ${stopper}`;
    const grace = (timeoutMs ?? 0) + deadlineMs;
    const result = parseResult(await within(pending, grace, what), what);
    const flag = stopper === 'abort' ? result.interrupted : result.timedOut;
    if (!flag) contractViolation(`${what} gave ${describeResult(result)}`);
    if (!beating)
      contractViolation(`the command's children never wrote their heartbeat file ${file}`);
    const probe = await run(environment, growthProbe(file), {}, 20_000);
    const [before, after] = sizesOf(probe.output);
    if (after !== before) {
      contractViolation(
        `a child of the ${stopper === 'abort' ? 'aborted' : 'timed-out'} command is still running: its heartbeat file grew from ${before} to ${after} bytes`,
      );
    }
    return;
  }
}

/** The numbers of the two `size=N` lines; noise a login profile prints around them is ignored. */
function sizesOf(output: string): [number, number] {
  const sizes = [...output.matchAll(/size=\s*(\d+)/g)].map((m) => Number(m[1]));
  if (sizes.length !== 2)
    contractViolation(`cannot read the heartbeat file's sizes from ${JSON.stringify(output)}`);
  return [sizes[0] ?? 0, sizes[1] ?? 0];
}

/**
 * Waits until the heartbeat file has content (the command's children are running): `true`, or
 * `false` when the command ended first.
 */
function waitForHeartbeat(
  environment: ExecutionEnvironment,
  file: string,
  ended: () => boolean,
): Promise<boolean> {
  const what = `the command's children never wrote their heartbeat file ${file}`;
  return waitForShellTest(environment, `-s ${file}`, what, ended);
}

/** Checks that an abort kills the command's background children too, not just the shell. */
export async function checkAbortKillsGroup(
  environment: ExecutionEnvironment,
  deadlineMs = DEFAULT_ABORT_DEADLINE_MS,
): Promise<void> {
  const file = uniqueName('hermes-beat');
  await checkHeartbeatStops(environment, `${beatLoop(file)} & sleep 30`, file, 'abort', deadlineMs);
}

/** Checks that a timeout kills the command's background children too. */
export async function checkTimeoutKillsGroup(
  environment: ExecutionEnvironment,
  slackMs = DEFAULT_TIMEOUT_SLACK_MS,
): Promise<void> {
  const file = uniqueName('hermes-beat');
  await checkHeartbeatStops(environment, `${beatLoop(file)} & sleep 30`, file, 'timeout', slackMs);
}

/** Checks that a command ignoring SIGTERM is still killed (SIGTERM escalates to SIGKILL). */
export async function checkEscalatesToKill(
  environment: ExecutionEnvironment,
  deadlineMs = DEFAULT_ABORT_DEADLINE_MS,
): Promise<void> {
  const file = uniqueName('hermes-beat');
  const command = `trap '' TERM INT HUP; ${beatLoop(file)} & sleep 30`;
  await checkHeartbeatStops(environment, command, file, 'abort', deadlineMs);
}

/** Checks that a command that forked many children has all of them killed. */
export async function checkKillsForkHeavyCommand(
  environment: ExecutionEnvironment,
  deadlineMs = DEFAULT_ABORT_DEADLINE_MS,
): Promise<void> {
  const file = uniqueName('hermes-beat');
  const command = `i=0; while [ $i -lt 30 ]; do ${beatLoop(file)} & i=$((i+1)); done; wait`;
  await checkHeartbeatStops(environment, command, file, 'abort', deadlineMs);
}
