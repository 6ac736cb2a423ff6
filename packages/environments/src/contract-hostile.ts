/**
 * Contract checks for hostile input and output: a missing working directory, binary bytes,
 * invalid UTF-8, progress-bar floods, long output, and commands that close or leak their output
 * pipes. Each must end with a clear result: no hang, no rejection, no crash.
 */
import { contractViolation } from '@hermes/protocol/testing';
import { describeResult, run } from './contract-support.js';
import type { ExecutionEnvironment } from './execution-environment.js';

/** Checks that a missing `cwd` is a failed result naming the directory, and nothing breaks. */
export async function checkMissingCwd(
  environment: ExecutionEnvironment,
  deadlineMs = 10_000,
): Promise<void> {
  const missing = '/nonexistent/hermes-contract-dir';
  const result = await run(environment, 'echo ran', { cwd: missing }, deadlineMs);
  if (result.exitCode === 0 || result.output.includes('ran')) {
    contractViolation(`a command in a missing cwd ran: ${describeResult(result)}`);
  }
  if (!result.output.includes(missing)) {
    contractViolation(`the error does not name the missing cwd: ${describeResult(result)}`);
  }
  const next = await run(environment, 'echo still-fine', {}, deadlineMs);
  if (next.exitCode !== 0 || !next.output.includes('still-fine')) {
    contractViolation(`the environment broke after a missing cwd: ${describeResult(next)}`);
  }
}

/** Checks that raw binary output becomes a valid string without NUL characters. */
export async function checkBinaryOutput(
  environment: ExecutionEnvironment,
  deadlineMs = 10_000,
): Promise<void> {
  const result = await run(
    environment,
    "head -c 4096 /dev/urandom; printf '\\000\\001\\002'; echo; echo after-binary",
    {},
    deadlineMs,
  );
  if (result.exitCode !== 0 || !result.output.includes('after-binary')) {
    contractViolation(`binary output gave ${describeResult(result)}`);
  }
  if (result.output.includes('\0')) contractViolation('the output still contains NUL characters');
  if (result.output.length > 20_000) {
    contractViolation(`4 KiB of binary became ${result.output.length} characters`);
  }
}

/** Checks that invalid UTF-8 is replaced (U+FFFD) and the valid text around it kept. */
export async function checkInvalidUtf8(
  environment: ExecutionEnvironment,
  deadlineMs = 10_000,
): Promise<void> {
  const result = await run(environment, "printf 'ok-\\377\\376-\\303\\251-end\\n'", {}, deadlineMs);
  const { output } = result;
  if (!output.includes('ok-') || !output.includes('-end') || !output.includes('\u00e9')) {
    contractViolation(`invalid UTF-8 lost the valid text: ${describeResult(result)}`);
  }
  if (!output.includes('\uFFFD')) {
    contractViolation(`invalid UTF-8 bytes were not replaced by U+FFFD: ${describeResult(result)}`);
  }
}

/** Checks that 20,000 `\r` progress updates end in a result with the final line. */
export async function checkCarriageReturnFlood(
  environment: ExecutionEnvironment,
  deadlineMs = 10_000,
): Promise<void> {
  const command =
    "i=0; while [ $i -lt 20000 ]; do printf 'progress %d\\r' $i; i=$((i+1)); done; echo; echo finished";
  const result = await run(environment, command, {}, deadlineMs);
  if (result.exitCode !== 0 || !result.output.includes('finished')) {
    contractViolation(`a \\r flood gave ${describeResult(result)}`);
  }
  if (result.output.length > 200_000) {
    contractViolation(`a \\r flood returned ${result.output.length} characters`);
  }
}

/** Checks that output beyond `maxOutputChars` keeps head and tail and names a spill file. */
export async function checkBoundsOutput(
  environment: ExecutionEnvironment,
  deadlineMs = 10_000,
): Promise<void> {
  const command = "echo FIRST-LINE; head -c 300000 /dev/zero | tr '\\000' a; echo; echo LAST-LINE";
  const result = await run(environment, command, { maxOutputChars: 10_000 }, deadlineMs);
  const { output } = result;
  if (output.length > 10_000) {
    contractViolation(`maxOutputChars 10000 returned ${output.length} characters`);
  }
  if (!output.includes('FIRST-LINE') || !output.includes('LAST-LINE')) {
    contractViolation(`truncated output lost its head or tail: ${describeResult(result)}`);
  }
  if (!result.spillPath || !output.includes(result.spillPath)) {
    contractViolation(`truncated output does not name its spill file: ${describeResult(result)}`);
  }
  const small = await run(environment, 'echo small', { maxOutputChars: 10_000 }, deadlineMs);
  if (small.spillPath !== undefined) {
    contractViolation(`small output made a spill file: ${describeResult(small)}`);
  }
}

/** Checks that a command that closes its output and keeps running is waited for, not lost. */
export async function checkClosedStdout(
  environment: ExecutionEnvironment,
  deadlineMs = 10_000,
): Promise<void> {
  const command = 'echo before-close; exec >/dev/null 2>&1 <&-; sleep 0.3; exit 5';
  const result = await run(environment, command, {}, deadlineMs);
  if (result.exitCode !== 5 || !result.output.includes('before-close')) {
    contractViolation(`a command that closed its stdout gave ${describeResult(result)}`);
  }
}

/** Checks that a background child holding the output pipes does not keep `execute` waiting. */
export async function checkLeakedPipe(
  environment: ExecutionEnvironment,
  deadlineMs = 10_000,
): Promise<void> {
  const command = '(sleep 20 &); echo parent-done';
  const result = await run(environment, command, {}, Math.min(deadlineMs, 8_000));
  if (result.exitCode !== 0 || !result.output.includes('parent-done')) {
    contractViolation(`a leaked background child gave ${describeResult(result)}`);
  }
}
